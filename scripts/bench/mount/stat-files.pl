# stat() every path in a NUL-separated list, PASSES times, in one process (the mount benchmark's
# "repeated stat" workload; see run.mjs).   perl stat-files.pl <list> <passes>
use strict;
use warnings;
my ($list, $passes) = @ARGV;
open(my $in, "<", $list) or die "cannot open $list: $!\n";
my @paths = do { local $/ = "\0"; <$in> };
chomp @paths;
for (1 .. $passes) {
  for (@paths) { stat($_) or die "stat $_: $!\n" }
}
print scalar(@paths), "\n";
