"""``lifearena deploy``: configuration for running the site in front of people, starting
with the nginx server block in front of one or several ``lifearena serve`` replicas
(:mod:`lifearena.web.nginx`; docs/deploy.md says how the pieces fit)."""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(help="Configuration for running the site: nginx in front of the replicas.",
                  no_args_is_help=True)


@app.command("nginx")
def nginx(
    replicas: Annotated[list[str], typer.Option(
        "--replica", "-r", help="A replica's HOST:PORT (a lifearena serve), e.g. "
                                "127.0.0.1:8001; repeat it for each replica.")],
    listen: Annotated[str, typer.Option(
        "--listen", help="What nginx listens on: PORT or ADDRESS:PORT.")] = "80",
    server_name: Annotated[str, typer.Option(
        "--server-name", help="The site's host name (nginx's server_name; _ for any).")] = "_",
) -> None:
    """Print the nginx server block (upstream of the replicas, socket upgrade, the client's
    address in X-Forwarded-For) for /etc/nginx/sites-enabled/lifearena. Start each replica
    with --forwarded-allow-ips set to nginx's address, and, with several, the K-th -r
    replica (from 0) with --lane K: a game's requests then go to the replica that made it."""
    from lifearena.web.nginx import site_config

    typer.echo(site_config(replicas, listen=listen, server_name=server_name))
