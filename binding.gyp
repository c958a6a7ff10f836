{
  "targets": [
    {
      "target_name": "cloexec",
      "sources": ["native/cloexec.c"]
    }
  ]
}
