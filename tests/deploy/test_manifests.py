"""The deployment files agree with the code, checked here since no Docker engine or cluster
runs the suite: every Kubernetes manifest and the compose file load; names, ports, probes
and commands agree with each other, with the settings (project/config.py) and with
the URLs (/healthz, /readyz, /metrics resolve to their views); the Dockerfile keeps the
rules an image linter checks; nginx accepts every nginx file (`nginx -t`); the Grafana
dashboard asks only for figures the platform exposes."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.urls import resolve

from tests.test_foundation.helpers import ROOT

DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
CONFIG_SOURCE = (ROOT / "project" / "config.py").read_text()
# Every variable project/config.py reads (its readers all take `environ, "NAME"`).
CONFIG_VARS = set(re.findall(r'_\w+\(environ, "([A-Z_]+)"', CONFIG_SOURCE)) | {"DJANGO_SETTINGS_MODULE"}
# Read by the processes' tools rather than the settings.
TOOL_VARS = {"PROMETHEUS_MULTIPROC_DIR", "WEB_CONCURRENCY", "FORWARDED_ALLOW_IPS", "PORT"}


def manifests() -> dict[str, dict[str, Any]]:
    """Every object of deploy/k8s by `Kind/name`."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(K8S.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for document in yaml.safe_load_all(path.read_text()):
            assert document["apiVersion"] and document["metadata"]["name"], path
            found[f"{document['kind']}/{document['metadata']['name']}"] = document
    return found


def container(workload: dict[str, Any]) -> dict[str, Any]:
    spec = workload["spec"]["template"]["spec"]
    (only,) = spec["containers"]
    return dict(only)


def test_every_manifest_loads_and_kustomize_lists_them_all() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    files = {path.name for path in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == files
    kinds = {key.split("/")[0] for key in manifests()}
    assert {
        "Deployment",
        "HorizontalPodAutoscaler",
        "Job",
        "PodDisruptionBudget",
        "ConfigMap",
        "Secret",
    } <= kinds
    assert {"Service", "Ingress", "Namespace"} <= kinds


def test_web_ports_probes_and_autoscaler_agree() -> None:
    objects = manifests()
    web = objects["Deployment/cacho-web"]
    labels = web["spec"]["template"]["metadata"]["labels"]
    assert web["spec"]["selector"]["matchLabels"].items() <= labels.items()
    main = container(web)
    (port,) = main["ports"]
    assert f"--port={port['containerPort']}" in main["command"]
    assert main["command"][:2] == ["uvicorn", "project.asgi:application"]
    for probe, path in (
        ("livenessProbe", "/healthz"),
        ("readinessProbe", "/readyz"),
        ("startupProbe", "/healthz"),
    ):
        get = main[probe]["httpGet"]
        assert get["path"] == path and get["port"] == port["name"]
    assert main["livenessProbe"]["httpGet"]["path"] != main["readinessProbe"]["httpGet"]["path"]
    assert resolve("/healthz").url_name == "healthz" and resolve("/readyz").url_name == "readyz"
    assert (
        resolve(web["spec"]["template"]["metadata"]["annotations"]["prometheus.io/path"]).url_name
        == "metrics"
    )

    service = objects["Service/cacho-web"]
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["ports"][0]["targetPort"] == port["name"]
    ingress = objects["Ingress/cacho"]
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend == {"name": "cacho-web", "port": {"name": service["spec"]["ports"][0]["name"]}}
    # A match's sockets go to one pod: their own Ingress hashes them by path, to a Service of
    # the same pods.
    sockets = objects["Ingress/cacho-match-sockets"]
    assert sockets["metadata"]["annotations"]["nginx.ingress.kubernetes.io/upstream-hash-by"] == "$uri"
    (path,) = sockets["spec"]["rules"][0]["http"]["paths"]
    assert path["path"] == "/ws/matches/" and path["pathType"] == "Prefix"
    sockets_service = objects[f"Service/{path['backend']['service']['name']}"]
    assert sockets_service["metadata"]["name"] != "cacho-web"
    assert sockets_service["spec"]["selector"] == service["spec"]["selector"]
    from cacho.routing import websocket_urlpatterns as match_routes

    assert all(str(route.pattern).startswith(path["path"][1:]) for route in match_routes)

    hpa = objects["HorizontalPodAutoscaler/cacho-web"]
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": "cacho-web",
    }
    assert hpa["spec"]["minReplicas"] >= 2
    assert "cpu" in main["resources"]["requests"], "a CPU autoscaler needs a CPU request"
    for name in ("cacho-web", "cacho-worker"):
        budget = objects[f"PodDisruptionBudget/{name}"]["spec"]["selector"]["matchLabels"]
        pods = objects[f"Deployment/{name}"]["spec"]["template"]["metadata"]["labels"]
        assert budget.items() <= pods.items()


def test_one_beat_workers_and_the_migration_job() -> None:
    objects = manifests()
    beat = objects["Deployment/cacho-beat"]
    assert beat["spec"]["replicas"] == 1 and beat["spec"]["strategy"]["type"] == "Recreate"
    assert container(beat)["command"][:4] == ["celery", "-A", "project", "beat"]
    worker = container(objects["Deployment/cacho-worker"])
    assert worker["command"][:4] == ["celery", "-A", "project", "worker"]
    assert "--concurrency" in worker["command"] and "solo" not in worker["command"]
    assert worker["readinessProbe"]["exec"]["command"] == ["test", "-f", "/tmp/celery-ready"]
    job = objects["Job/cacho-migrate"]["spec"]["template"]["spec"]
    assert job["restartPolicy"] == "Never"
    assert job["containers"][0]["command"] == ["python", "manage.py", "migrate", "--noinput"]


def test_configuration_names_are_the_settings_own() -> None:
    objects = manifests()
    config = objects["ConfigMap/cacho-config"]["data"]
    secret = objects["Secret/cacho-secrets"]["stringData"]
    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL"} <= set(secret)
    composed = {"CACHO_PUBLIC_HOSTS"}  # only a part of ALLOWED_HOSTS, composed in the pods' env
    assert set(config) | set(secret) <= CONFIG_VARS | composed
    for key, workload in objects.items():
        if key.split("/")[0] not in ("Deployment", "Job"):
            continue
        main = container(workload)
        sources = {next(iter(item.values()))["name"] for item in main["envFrom"]}
        assert sources == {"cacho-config", "cacho-secrets"}, key
        env = {item["name"]: item for item in main.get("env", [])}
        assert "CACHO_PUBLIC_HOSTS" in env["ALLOWED_HOSTS"]["value"], key
        assert set(env) <= CONFIG_VARS | TOOL_VARS | {"POD_IP"}, key
        security = main["securityContext"]
        assert security["readOnlyRootFilesystem"] and not security["allowPrivilegeEscalation"], key
        assert workload["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"], key
    assert "change-me" in secret["SECRET_KEY"], "the example holds placeholders, never a secret"


def test_compose_runs_every_process_with_the_settings_names() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"migrate", "web", "worker", "beat", "postgres", "redis", "nginx"}
    for name in ("migrate", "web", "worker", "beat"):
        assert set(services[name]["environment"]) <= CONFIG_VARS | TOOL_VARS, name
        assert services[name]["build"]["dockerfile"] == "deploy/Dockerfile"
    assert services["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert services["beat"]["deploy"]["replicas"] == 1
    assert services["worker"]["command"][:4] == ["celery", "-A", "project", "worker"]
    assert services["nginx"]["build"]["target"] == "proxy"
    assert "8000" in services["web"]["expose"]
    nginx = (DEPLOY / "compose" / "nginx.conf").read_text()
    assert "server web:8000;" in nginx and "alias /srv/cacho/staticfiles/;" in nginx


def test_the_dockerfile_keeps_the_image_rules() -> None:
    """What hadolint and the docs ask of it, read from the file (no Docker engine here)."""
    text = (DEPLOY / "Dockerfile").read_text()
    stages = re.findall(r"^FROM (\S+) AS (\w+)$", text, re.MULTILINE)
    assert [name for _, name in stages] == ["build", "runtime", "proxy"]
    assert "ARG PYTHON_IMAGE=python:3.11-slim-bookworm" in text
    assert all(":" in image or image.startswith("${") for image, _ in stages), "tagged base images"
    assert ":latest" not in text
    runtime = text.split(" AS runtime", 1)[1].split(" AS proxy", 1)[0]
    users = re.findall(r"^USER (\S+)$", runtime, re.MULTILINE)
    assert users == ["cacho:cacho"], "the runtime runs as a user of its own, not root"
    assert runtime.index("collectstatic") < runtime.index("USER "), "static files collected at build"
    (healthcheck,) = re.findall(r"^HEALTHCHECK .*(?:\n    .*)*", runtime, re.MULTILINE)
    assert "/healthz" in healthcheck
    assert "ADD " not in text and "sudo" not in text
    assert "apt-get" not in text, "no system packages: the slim image has what the wheels need"
    for line in re.findall(r"^COPY (?!--from)(\S+)", text, re.MULTILINE):
        assert (ROOT / line).exists(), line
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".venv" in ignored and ".git" in ignored


def nginx_test(binary: str, config: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [binary, "-t", "-p", str(folder), "-c", str(config), "-e", str(folder / "error.log")],
        capture_output=True,
        text=True,
        check=False,
    )


def certificate(folder: Path) -> Path:
    from deploy.topology import make_certificate

    make_certificate(folder / "tls")
    return folder / "tls"


def wrapped(site: str, folder: Path) -> Path:
    """A site file (server blocks) inside the main file a distribution's nginx has."""
    from deploy.topology import MIME_TYPES

    mime = next(path for path in MIME_TYPES if Path(path).exists())
    (folder / "site.conf").write_text(site)
    main = folder / "nginx.conf"
    main.write_text(
        f"pid {folder}/nginx.pid;\nevents {{}}\n"
        f"http {{\n    include {mime};\n    access_log off;\n    include {folder}/site.conf;\n}}\n"
    )
    return main


@pytest.mark.parametrize("name", ["production", "compose", "local"])
def test_nginx_accepts_every_nginx_file(name: str, nginx: str, tmp_path: Path) -> None:
    tls = certificate(tmp_path)
    if name == "local":
        from deploy.topology import render_nginx

        config = render_nginx(tmp_path, 8443, [8001, 8002])
    else:
        source = DEPLOY / ("nginx.conf" if name == "production" else "compose/nginx.conf")
        site = source.read_text()
        # The files name the host's certificate and the compose network's `web`: here, a
        # certificate of this test's and a local address (nginx resolves upstreams).
        site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {tls}/cert.pem;", site)
        site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {tls}/key.pem;", site)
        site = site.replace("server web:8000;", "server 127.0.0.1:8000;")
        config = wrapped(site, tmp_path)
    done = nginx_test(nginx, config, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "test is successful" in done.stderr
    text = config.read_text() + (
        (tmp_path / "site.conf").read_text() if (tmp_path / "site.conf").exists() else ""
    )
    assert "proxy_set_header Upgrade $http_upgrade;" in text and "location /ws/" in text
    assert "location /static/" in text and "$static_cache_control" in text


def family(name: str) -> str:
    return re.sub(r"_(bucket|count|sum|total|created)$", "", name)


def test_the_dashboard_asks_for_figures_the_platform_exposes() -> None:
    from prometheus_client import generate_latest

    import cacho.observability.metrics  # noqa: F401 - the instruments are registered on import
    from project.observability import metrics

    counted = generate_latest(metrics.registry(readings=False)).decode()
    exposed = {family(name) for name in re.findall(r"^# TYPE (cacho_\w+)", counted, re.MULTILINE)}
    assert {"cacho_command_seconds", "cacho_timer_lateness_seconds", "cacho_events_appended"} <= exposed
    exposed |= set(re.findall(r'"(cacho_\w+)"', Path(metrics.__file__).read_text()))  # read at scrape time
    dashboard = json.loads((DEPLOY / "grafana" / "cacho-dashboard.json").read_text())
    asked = {
        family(name)
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"cacho_\w+", target["expr"])
    }
    assert len(asked) >= 8 and asked <= exposed, asked - exposed
