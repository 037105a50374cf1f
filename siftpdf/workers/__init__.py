"""The parent's side of the extraction children: starting them under limits and merging
their pages (runner), the machine-wide pool of slots (pool), the child started early
(warm) and the memory watchdog where the kernel has none (memwatch)."""
