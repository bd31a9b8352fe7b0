"""`sylla watch` and `sylla report`: live metrics and syllabus conformance while a run writes
its log, served to a browser, and the same views frozen into one HTML file.

The design keeps one rule: the live state is *exactly* what ``sylla metrics --format json``
prints for the log as it stands. To hold that rule without a second implementation of every
reader, the follower keeps a private mirror of the run holding only complete lines
(`mirror.Mirror`) and the existing readers and metrics run on that mirror (`state`).
"""
