"""Loaded by Python at start-up in the processes the tests start (this folder is on their
PYTHONPATH): installs the test seams of siftpdf_seams.py when a test asked for one."""

import os

import siftpdf_seams

if os.environ.get(siftpdf_seams.ABSENT):
    siftpdf_seams.make_absent(os.environ[siftpdf_seams.ABSENT])

if siftpdf_seams.wanted():
    siftpdf_seams.install()
elif os.environ.get(siftpdf_seams.FETCH_VIA):
    siftpdf_seams.install_fetch()  # alone: it costs a process nothing until it downloads
