"""What a reader sees of a doc stream: the page-marked text and Markdown views, the map,
slices of pages, and grep (search, and grepview's output)."""
