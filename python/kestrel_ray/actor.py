"""A Ray actor holding one warm `kestrel worker` process; a job whose process dies is sent
again to a fresh process (up to max_retries times), so a killed worker loses nothing."""

import json
import os
import socket
import subprocess
import tempfile


def blob_dir():
    """This node's blob cache (the worker's default folder)."""
    return os.path.join(tempfile.gettempdir(), "kestrel-blobs")


class KestrelWorker:
    def __init__(self, kestrel, threads, max_retries):
        self.cmd = [kestrel, "worker", "--threads", str(threads), "--cache", blob_dir()]
        self.max_retries = max_retries
        self.proc = None

    def _start(self):
        self.proc = subprocess.Popen(
            self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ready(self):
        """Starts the worker process; returns where it runs."""
        self._start()
        if self.proc.poll() is not None:
            raise RuntimeError(f"{self.cmd[0]} worker exited at once ({self.proc.returncode})")
        return {"node": socket.gethostname(), "pid": self.proc.pid}

    def _ensure_blobs(self, blob_refs):
        import ray

        folder = blob_dir()
        os.makedirs(folder, exist_ok=True)
        for digest, ref in blob_refs.items():
            path = os.path.join(folder, digest)
            if os.path.exists(path):
                continue
            data = ray.get(ref)  # shipped once per node through the object store
            fd, tmp = tempfile.mkstemp(dir=folder)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)

    def evaluate(self, envelope, blob_refs, fault):
        """The worker's reply line to one job line. `fault` (tests only): 'kill-once' kills
        the worker mid-job on the first attempt, 'kill-always' on every attempt."""
        self._ensure_blobs(blob_refs)
        failures = []
        for attempt in range(self.max_retries + 1):
            if self.proc is None or self.proc.poll() is not None:
                self._start()
            try:
                if fault == "kill-always" or (fault == "kill-once" and attempt == 0):
                    # Dies while taking the job: half of it sent, then SIGKILL (no race).
                    self.proc.stdin.write(envelope[: len(envelope) // 2])
                    self.proc.stdin.flush()
                    self.proc.kill()
                else:
                    self.proc.stdin.write(envelope + "\n")
                    self.proc.stdin.flush()
                line = self.proc.stdout.readline()
            except OSError:
                line = ""
            if line.strip():
                return line.strip()
            failures.append(f"worker process exited ({self.proc.wait()})")
            self.proc = None
        return json.dumps(
            {
                "ok": False,
                "error": f"failed on all {len(failures)} attempts on {socket.gethostname()}: "
                + "; ".join(failures),
            }
        )
