{
  # Builds native/build/Release/forage_fuse.node against libfuse3 (pkg-config fuse3).
  # Run from the repository root: node-gyp rebuild --directory native
  "targets": [
    {
      "target_name": "forage_fuse",
      "sources": [
        "addon.c",
        "invalidate.c",
        "js.c",
        "node-table.c",
        "ops.c",
        "replies.c",
        "requests.c",
        "table-replies.c",
        "session.c"
      ],
      "cflags": ["-std=gnu11", "-Wall", "-Wextra", "-O2", "<!@(pkg-config --cflags fuse3)"],
      "cflags!": ["-fno-exceptions"],
      "libraries": ["<!@(pkg-config --libs fuse3)"]
    }
  ]
}
