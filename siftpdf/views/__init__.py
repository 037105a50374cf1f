"""What a reader sees of a doc stream: the page-marked text and Markdown views, the map,
slices of pages, grep (``search``, and its output: ``grep``), and the choice of a view's
renderer (``renderers``)."""
