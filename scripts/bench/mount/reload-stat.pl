#!/usr/bin/env perl
# stat() of a new (missing) name in <dir> again and again for <seconds>; prints the slowest, in ms.
# Every name is new, so every stat is a lookup the daemon must answer: a stalled daemon shows here.
use strict;
use warnings;
use Time::HiRes qw(time);
my ($dir, $seconds) = @ARGV;
my ($end, $slowest, $i) = (time + $seconds, 0, 0);
while (time < $end) {
  my $start = time;
  stat("$dir/reload-probe-" . $i++);
  my $took = time - $start;
  $slowest = $took if $took > $slowest;
}
printf "%.1f\n", $slowest * 1000;
