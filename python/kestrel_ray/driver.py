"""The driver: `python3 -m kestrel_ray` reads requests from the kestrel binary on stdin and
answers on stdout, one JSON object per line.

Requests: {"op": "blob", "hash", "path"} puts a blob in Ray's object store once;
{"op": "run", "generation", "blobs", "jobs": [envelope, ...]} runs the jobs on the actors and
answers {"ok": true, "replies": [worker reply, ...]} in job order. The first line out is
{"ok": true, "workers": N} once Ray and the workers are up, or {"ok": false, "error"}.
"""

import argparse
import json
import os
import signal
import sys

LOCAL_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def parse(argv):
    p = argparse.ArgumentParser(prog="kestrel_ray")
    p.add_argument("--address", help="ray.init address; none: a local Ray on 127.0.0.1")
    p.add_argument("--kestrel", required=True, help="the kestrel binary on every node")
    p.add_argument("--workers", type=int, help="actors (default: cluster CPUs / threads)")
    p.add_argument("--worker-threads", type=int, default=1)
    p.add_argument("--max-retries", type=int, default=3)
    p.add_argument("--timeout", type=float, default=180.0)
    return p.parse_args(argv)


def is_loopback(address):
    """Whether `address` names a Ray on this machine's loopback (e.g. 127.0.0.1:6379), which
    Ray would otherwise replace by the machine's network address."""
    host = address.split("://")[-1].rsplit(":", 1)[0]
    return host in ("127.0.0.1", "localhost")


# Ray Client's proxy starts one server process per connection; on a loaded machine that start
# sometimes fails once ("Starting Ray client server failed") and the next connection works.
CLIENT_CONNECT_ATTEMPTS = 3


def start_ray(args):
    """ray.init for the address; a Ray Client (ray://) connection is tried up to
    CLIENT_CONNECT_ATTEMPTS times when its proxy fails to start a server."""
    import time

    import ray

    attempts = CLIENT_CONNECT_ATTEMPTS if (args.address or "").startswith("ray://") else 1
    for attempt in range(1, attempts + 1):
        try:
            return init_ray(ray, args)
        except ConnectionAbortedError as e:  # reached the proxy, its server did not start
            if attempt == attempts:
                raise
            print(f"kestrel_ray: Ray Client connection {attempt} failed ({e}); retrying",
                  file=sys.stderr)
            ray.shutdown()
            time.sleep(2.0 * attempt)


def init_ray(ray, args):
    """One ray.init: a local Ray, a loopback cluster, or any other address."""
    if args.address is None:
        ray.init(
            address="local",
            _node_ip_address="127.0.0.1",
            include_dashboard=False,
            log_to_driver=False,
            logging_level="ERROR",
        )
    elif is_loopback(args.address):
        # A cluster started on this machine with --node-ip-address=127.0.0.1: join it as a
        # loopback node too, or Ray looks for a raylet on the network address.
        ray.init(
            address=args.address,
            _node_ip_address="127.0.0.1",
            log_to_driver=False,
            logging_level="ERROR",
        )
    else:
        ray.init(address=args.address, log_to_driver=False, logging_level="ERROR")
    return ray


def start_workers(ray, args):
    from kestrel_ray.actor import KestrelWorker

    cpus = int(ray.cluster_resources().get("CPU", 1))
    count = args.workers or max(1, cpus // args.worker_threads)
    actor = ray.remote(KestrelWorker).options(
        num_cpus=args.worker_threads,
        max_restarts=args.max_retries,
        max_task_retries=args.max_retries,
    )
    workers = [actor.remote(args.kestrel, args.worker_threads, args.max_retries) for _ in range(count)]
    ray.get([w.ready.remote() for w in workers], timeout=args.timeout)
    return workers


def fault_for(generation, index):
    """Fault injection for tests: KESTREL_RAY_FAULT=kill-once:GEN or kill-always:GEN hits the
    first job of generation GEN."""
    spec = os.environ.get("KESTREL_RAY_FAULT", "")
    kind, _, gen = spec.partition(":")
    if kind in ("kill-once", "kill-always") and gen == str(generation) and index == 0:
        return kind
    return None


def run_jobs(ray, workers, blobs, msg):
    from ray.util import ActorPool

    refs = {h: blobs[h] for h in msg.get("blobs", [])}
    jobs = [
        (json.dumps(job, separators=(",", ":")), fault_for(msg.get("generation"), i))
        for i, job in enumerate(msg["jobs"])
    ]
    pool = ActorPool(workers)
    replies = pool.map(lambda w, job: w.evaluate.remote(job[0], refs, job[1]), jobs)
    # Worker replies pass through as text, so scores stay bit-exact.
    return '{"ok":true,"replies":[' + ",".join(replies) + "]}"


def main(argv):
    args = parse(argv)
    # Only protocol lines go to stdout; anything else printed goes to stderr.
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)

    def send(obj):
        out.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
        out.flush()

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.address is None or is_loopback(args.address):
        os.environ[LOCAL_ENV] = "0"  # a local Ray binds and talks on loopback only
    try:
        import ray  # noqa: F401
    except ImportError as e:
        send({"ok": False, "error": f"python cannot import ray ({e}); install it with "
              "`pip install ./python` (see docs/cluster.md)"})
        return 2
    try:
        ray = start_ray(args)
    except Exception as e:  # ray.init raises many kinds
        send({"ok": False, "error": f"cannot start or reach Ray: {type(e).__name__}: {e}"})
        return 3
    try:
        try:
            workers = start_workers(ray, args)
        except Exception as e:
            send({"ok": False, "error": f"cannot start the kestrel workers: {type(e).__name__}: {e}"})
            return 4
        send({"ok": True, "workers": len(workers), "ray": ray.__version__})
        blobs = {}
        for line in sys.stdin:
            if not line.strip():
                continue
            msg = json.loads(line)
            try:
                if msg["op"] == "blob":
                    with open(msg["path"], "rb") as f:
                        blobs[msg["hash"]] = ray.put(f.read())
                    send({"ok": True})
                elif msg["op"] == "run":
                    send(run_jobs(ray, workers, blobs, msg))
                else:
                    send({"ok": False, "error": f"unknown request {msg['op']!r}"})
            except Exception as e:
                send({"ok": False, "error": f"{type(e).__name__}: {e}"})
        return 0
    finally:
        ray.shutdown()
