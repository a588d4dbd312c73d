"""Several ``musteach serve`` instances behind nginx with sticky sessions: one way past one machine.

Each visitor's kernel lives in one instance, so every request of a visitor (the page, the kernel's websocket,
the shutdown beacon) must reach the instance that holds it. nginx routes by the visitor's session cookie
(``hash $cookie_musteach_session consistent``); the instances share the secret that signs that cookie (so a
first visit may land anywhere) and trust the proxy's ``X-Forwarded-For``/``X-Forwarded-Proto``. A first
visit has no cookie yet: it only sets one and comes back (``musteach serve`` starts no kernel without a
session), so the kernel is started by the instance the cookie maps to.

:func:`nginx_config` writes the configuration (the same file serves a real deployment, with TLS and real
addresses); :func:`running_cluster` starts N instances and Debian's nginx on loopback for tests and the load
test (``benchmarks/load_test.py --instances 2``).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .guard import SESSION_COOKIE
from .probe import Server, answers_ok, free_port, running_server

__all__ = ["Cluster", "find_nginx", "nginx_config", "running_cluster"]


def find_nginx() -> str | None:
    """Debian's nginx binary (``apt-get install nginx-light``), or None."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def nginx_config(listen: str, upstreams: list[str], prefix: Path, user: str | None = None) -> str:
    """An nginx configuration (whole file) proxying ``listen`` (``127.0.0.1:8080``) to the ``upstreams``
    (``unix:/run/musteach/1.sock``, each ``musteach serve --socket``: only the proxy can reach an instance, so
    no other client can send it a forged ``X-Forwarded-For``; or ``host:port``), sticky by the session cookie,
    websockets included. Its pid, logs and temporary files live under ``prefix``; it runs in the foreground as
    the calling user (``user``: the user its workers run as when it is started as root, who must be able to
    open the instances' sockets)."""
    who = f"user {user};\n" if user else ""
    servers = "\n".join(f"        server {u} max_fails=0;" for u in upstreams)
    return f"""# musteach: {len(upstreams)} `musteach serve` instances behind nginx, sticky by the session cookie
{who}worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
daemon off;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    server_tokens off;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    # the session cookie, by either name (__Host-{SESSION_COOKIE} over TLS: no $cookie_ variable can name it)
    map $http_cookie $musteach_session {{
        default "";
        "~(?:^|;\\s*)__Host-{SESSION_COOKIE}=(?<sid>[^;]+)" $sid;
        "~(?:^|;\\s*){SESSION_COOKIE}=(?<sid>[^;]+)" $sid;
    }}
    upstream musteach {{
        # a visitor's requests all reach the instance that holds their kernel
        hash $musteach_session consistent;
{servers}
    }}
    server {{
        listen {listen};
        location / {{
            proxy_pass http://musteach;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            proxy_buffering off;
        }}
    }}
}}
"""


@dataclass
class Cluster:
    """Running instances behind a running nginx: the proxy's ``base_url``, the ``servers``, nginx's process."""

    base_url: str
    servers: list[Server]
    nginx: subprocess.Popen[bytes]
    prefix: Path




@contextlib.contextmanager
def running_cluster(n: int, *args: str, log_dir: Path, cwd: Path | None = None,
                    timeout: float = 120.0) -> Iterator[Cluster]:
    """``n`` instances of ``musteach serve *args``, each on a Unix socket (``--socket``: only nginx reaches
    them, and they believe its ``X-Forwarded-For``), sharing a cookie secret (``log_dir/secret``), and nginx in
    front of them on a free loopback port. Yields a :class:`Cluster` once the proxy answers; stops nginx and
    the instances (their kernels included) afterwards. Raises RuntimeError when nginx is missing or does not
    start."""
    nginx = find_nginx()
    if nginx is None:
        raise RuntimeError("nginx is not installed (as root: apt-get install nginx-light, or make proxy-deps)")
    log_dir.mkdir(parents=True, exist_ok=True)
    secret = log_dir / "secret"
    secret.write_text(secrets.token_hex(32))
    secret.chmod(0o600)
    common = ("--secret-file", str(secret))
    with contextlib.ExitStack() as stack:
        sockets = Path(tempfile.mkdtemp(prefix="musteach-sockets-"))  # short paths (a socket's is at most 107)
        stack.callback(shutil.rmtree, sockets, True)
        servers = [stack.enter_context(running_server(*args, *common, log_path=log_dir / f"serve-{i + 1}.log",
                                                      cwd=cwd, timeout=timeout, unix_socket=sockets / f"{i + 1}.sock"))
                   for i in range(n)]
        prefix = log_dir / "nginx"
        prefix.mkdir(exist_ok=True)
        port = free_port()
        conf = prefix / "nginx.conf"
        user = pwd.getpwuid(os.geteuid()).pw_name if os.geteuid() == 0 else None  # workers reach the sockets
        conf.write_text(nginx_config(f"127.0.0.1:{port}", [s.base_url for s in servers], prefix, user))
        proc = subprocess.Popen([nginx, "-p", str(prefix), "-c", str(conf)], stdout=subprocess.DEVNULL,
                                stderr=open(prefix / "stderr.log", "wb"), start_new_session=True)

        def stop_nginx() -> None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()

        stack.callback(stop_nginx)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while not answers_ok(base + "/"):
            if proc.poll() is not None or time.monotonic() > deadline:
                err = (prefix / "stderr.log").read_text(errors="replace") + (prefix / "error.log").read_text(
                    errors="replace") if (prefix / "error.log").exists() else ""
                raise RuntimeError(f"nginx did not start: {err[-2000:]}")
            time.sleep(0.2)
        yield Cluster(base, servers, proc, prefix)
