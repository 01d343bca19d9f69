"""The production topology on one host, without containers: nginx (TLS, static files,
websockets) in front of several uvicorn processes, a Celery worker and beat, on the
PostgreSQL and Redis named by DATABASE_URL and REDIS_URL, with production settings.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python deploy/topology.py [--web 2] [--port 8443]

Everything it makes lives in one run folder (`--run-dir`, a fresh temporary one by
default): a throwaway SECRET_KEY generated at start (never written to the repository),
a self-signed certificate for 127.0.0.1, the collected static files, prometheus-client's
multiprocess folder, the logs (JSON) of every process. The suite's smoke test
(tests/deploy/test_topology.py) and `bench/live --through-proxy` start it through
`running()`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "deploy" / "local" / "nginx.conf"
MIME_TYPES = (
    "/etc/nginx/mime.types",
    "/usr/local/nginx/conf/mime.types",
    "/opt/homebrew/etc/nginx/mime.types",
)
POLL = 0.05


class TopologyError(RuntimeError):
    pass


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(path, os.X_OK)), None
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Topology:
    url: str  # https://127.0.0.1:<port>, through nginx
    run_dir: Path
    env: dict[str, str]  # the production environment every process has
    web_urls: list[str]  # each uvicorn process, straight (http://127.0.0.1:<port>)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def certificate(self) -> Path:
        return self.run_dir / "tls" / "cert.pem"

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts this run's certificate (and nothing else)."""
        return ssl.create_default_context(cafile=str(self.certificate))

    @property
    def ws_url(self) -> str:
        return "wss://" + self.url.split("://", 1)[1]

    def log(self, name: str) -> str:
        path = self.run_dir / "logs" / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def pids(self) -> list[int]:
        return [process.pid for process in self.processes.values()]


def production_env(base: Mapping[str, str], run_dir: Path, port: int, **extra: str) -> dict[str, str]:
    """The environment of every process: production settings on the given services."""
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not base.get(name):
            raise TopologyError(f"{name} must name the PostgreSQL and Redis to run on")
    env = {key: value for key, value in base.items() if key != "DJANGO_SETTINGS_MODULE"}
    origins = f"https://127.0.0.1:{port},https://localhost:{port}"
    env.update(
        CACHO_ENV="production",
        # The caller's (a bench that made the sessions it plays with), else this run's only;
        # never stored.
        SECRET_KEY=base.get("SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CSRF_TRUSTED_ORIGINS=origins,
        STATIC_ROOT=str(run_dir / "static"),
        PROMETHEUS_MULTIPROC_DIR=str(run_dir / "metrics"),
        LOG_FORMAT="json",
        CACHO_WORKER_READY_FILE=str(run_dir / "worker.ready"),
        PYTHONUNBUFFERED="1",
    )
    env.setdefault("LOG_LEVEL", "INFO")
    env.update(extra)
    return env


def make_certificate(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-keyout", str(directory / "key.pem"), "-out", str(directory / "cert.pem"),
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip


def render_nginx(run_dir: Path, port: int, web_ports: list[int]) -> Path:
    mime = next((path for path in MIME_TYPES if Path(path).exists()), None)
    if mime is None:
        raise TopologyError("nginx's mime.types is not where nginx packages put it")
    upstreams = "\n".join(f"        server 127.0.0.1:{web_port};" for web_port in web_ports)
    text = TEMPLATE.read_text()
    for name, value in {
        "RUN": str(run_dir),
        "MIME_TYPES": mime,
        "UPSTREAMS": upstreams,
        "PORT": str(port),
        "STATIC_ROOT": str(run_dir / "static"),
        # Started as root, nginx hands its workers to `nobody`, who cannot read a private
        # run folder: they run as the folder's owner instead.
        "USER": f"user {_owner(run_dir)};\n" if os.geteuid() == 0 else "",
    }.items():
        text = text.replace(f"@{name}@", value)
    for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (run_dir / "nginx-temp" / temp).mkdir(parents=True, exist_ok=True)
    path = run_dir / "nginx.conf"
    path.write_text(text)
    return path


def _owner(path: Path) -> str:
    import pwd

    return pwd.getpwuid(path.stat().st_uid).pw_name


def _manage(env: Mapping[str, str], *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=dict(env), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise TopologyError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")


def _start(topology: Topology, name: str, args: list[str]) -> None:
    logs = topology.run_dir / "logs"
    logs.mkdir(exist_ok=True)
    with (logs / f"{name}.log").open("wb") as sink:
        topology.processes[name] = subprocess.Popen(
            args, cwd=ROOT, env=topology.env, stdout=sink, stderr=subprocess.STDOUT
        )


def _listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
        return True
    return False


def _wait(topology: Topology, ready: dict[str, object], timeout: float) -> None:
    """Until every check in `ready` passes; a process that exits meanwhile is an error."""
    deadline = time.monotonic() + timeout
    pending = dict(ready)
    while pending:
        for name, process in topology.processes.items():
            if process.poll() is not None and (name != "collectstatic" or process.returncode != 0):
                raise TopologyError(f"{name} exited with {process.returncode}:\n{topology.log(name)[-3000:]}")
        for name, check in list(pending.items()):
            if check():  # type: ignore[operator]
                del pending[name]
        if time.monotonic() > deadline:
            raise TopologyError(f"not up within {timeout:g} s: {', '.join(pending)}")
        time.sleep(POLL)


def _healthy(topology: Topology) -> bool:
    try:
        with urllib.request.urlopen(
            topology.url + "/healthz", timeout=2, context=topology.ssl_context()
        ) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@contextlib.contextmanager
def running(
    base_env: Mapping[str, str],
    run_dir: Path,
    *,
    web: int = 2,
    port: int | None = None,
    worker: bool = True,
    beat: bool = True,
    migrate: bool = True,
    collectstatic: bool = True,
    extra_env: Mapping[str, str] | None = None,
    startup_timeout: float = 60,
) -> Iterator[Topology]:
    """Migrate (unless `migrate` is false: a schema made already), collect the static
    files, start everything, wait for /healthz through nginx; stop everything on exit
    (uvicorn, Celery, nginx: the processes started here). `collectstatic=False` keeps the
    files a former run collected into the same folder."""
    nginx = nginx_binary()
    if nginx is None:
        raise TopologyError("nginx is not installed (Debian: apt-get install nginx)")
    run_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    env = production_env(base_env, run_dir, port, **dict(extra_env or {}))
    (run_dir / "worker.ready").unlink(missing_ok=True)
    metrics = run_dir / "metrics"
    shutil.rmtree(metrics, ignore_errors=True)  # prometheus-client: empty before the processes start
    metrics.mkdir()
    web_ports = [free_port() for _ in range(web)]
    topology = Topology(
        f"https://127.0.0.1:{port}", run_dir, env, [f"http://127.0.0.1:{p}" for p in web_ports]
    )
    if migrate:
        _manage(env, "migrate", "--noinput")
    make_certificate(run_dir / "tls")
    config = render_nginx(run_dir, port, web_ports)
    try:
        # The release step: the web processes read the static files' manifest when they
        # start, so they wait for it; the worker and beat start meanwhile.
        if collectstatic:
            _start(
                topology,
                "collectstatic",
                [sys.executable, "manage.py", "collectstatic", "--noinput", "--clear"],
            )
        if worker:
            _start(
                topology,
                "worker",
                [sys.executable, "-m", "celery", "-A", "project", "worker", "--loglevel", "INFO",
                 "--concurrency", "2", "--prefetch-multiplier", "1", "-n", f"topology-{port}@%h"],
            )  # fmt: skip
        if beat:
            _start(
                topology,
                "beat",
                [sys.executable, "-m", "celery", "-A", "project", "beat", "--loglevel", "INFO",
                 "--schedule", str(run_dir / "celerybeat-schedule")],
            )  # fmt: skip
        if collectstatic:
            _wait(topology, {"collectstatic": lambda: topology.processes["collectstatic"].poll() == 0}, 120)
        for number, web_port in enumerate(web_ports):
            _start(
                topology,
                f"web-{number}",
                [
                    sys.executable, "-m", "uvicorn", "project.asgi:application",
                    "--host", "127.0.0.1", "--port", str(web_port), "--lifespan", "off",
                    "--ws-per-message-deflate", "false", "--proxy-headers",
                    "--forwarded-allow-ips", "127.0.0.1", "--no-access-log",
                ],
            )  # fmt: skip
        _start(
            topology,
            "nginx",
            [nginx, "-e", str(run_dir / "nginx-error.log"), "-p", str(run_dir), "-c", str(config)],
        )
        checks: dict[str, object] = {f"web-{n}": (lambda p=p: _listening(p)) for n, p in enumerate(web_ports)}
        if worker:
            checks["worker"] = lambda: (run_dir / "worker.ready").exists()
        checks["nginx"] = lambda: _listening(port)
        _wait(topology, checks, startup_timeout)
        _wait(topology, {"healthz through nginx": lambda: _healthy(topology)}, startup_timeout)
        yield topology
    finally:
        stop(topology)


def stop(topology: Topology) -> None:
    """SIGTERM to each process started (nginx: a fast shutdown), SIGKILL after 10 s."""
    for process in topology.processes.values():
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in topology.processes.values():
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--web", type=int, default=2, help="uvicorn processes behind nginx")
    parser.add_argument("--port", type=int, default=8443, help="nginx's HTTPS port on 127.0.0.1")
    parser.add_argument("--run-dir", type=Path, help="where everything goes (default: a temporary folder)")
    args = parser.parse_args()
    run_dir = args.run_dir or Path(tempfile.mkdtemp(prefix="cacho-topology-"))
    try:
        with running(os.environ, run_dir, web=args.web, port=args.port) as topology:
            print(
                f"serving on {topology.url} (certificate {topology.certificate}); logs in {run_dir / 'logs'}"
            )
            print("Ctrl-C stops every process")
            with contextlib.suppress(KeyboardInterrupt):
                while all(p.poll() is None for n, p in topology.processes.items() if n != "collectstatic"):
                    time.sleep(1)
    except TopologyError as exc:
        print(f"topology: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
