"""Kestrel's Ray executor: the `kestrel` binary starts `python3 -m kestrel_ray` and sends it
fitness jobs as JSON lines; Ray actors run them on warm `kestrel worker` processes."""

__version__ = "0.1.0"
