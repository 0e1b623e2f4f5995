{
  # Builds native/build/Release/forage_fuse.node against libfuse3 (pkg-config fuse3).
  # Run from the repository root: node-gyp rebuild --directory native
  "targets": [
    {
      "target_name": "forage_fuse",
      "sources": [
        "addon.c",
        "attributes.c",
        "invalidate.c",
        "js-calls.c",
        "js.c",
        "log-capture.c",
        "node-table.c",
        "ops.c",
        "plain-files.c",
        "replies.c",
        "requests.c",
        "session.c",
        "table-replies.c"
      ],
      "cflags": ["-std=gnu11", "-Wall", "-Wextra", "-O2", "<!@(pkg-config --cflags fuse3)"],
      "cflags!": ["-fno-exceptions"],
      "libraries": ["<!@(pkg-config --libs fuse3)"]
    }
  ]
}
