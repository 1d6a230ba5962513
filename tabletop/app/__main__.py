"""``python -m tabletop.app``: serve the web page on this machine and print its address.

Options: ``--port`` (default 5006; 0 picks a free one), ``--address`` (default
127.0.0.1: only this machine can open the page), ``--reports`` (the folder of reports
shown; default the project's ``reports/``) and ``--show`` (open a browser tab). Ctrl-C
stops the server.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

from tabletop import cli


def free_port(address: str) -> int:
    """A port that is free on ``address`` now (the system picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((address, 0))
        return sock.getsockname()[1]


def parser() -> argparse.ArgumentParser:
    """The command line's options."""
    p = cli.ArgumentParser(prog="python -m tabletop.app",
                           description="the dice advisor, the variant explorer and the "
                                       "reports, as a local web page")  # fmt: skip
    p.add_argument("--port", type=int, default=5006, help="port (default 5006; 0: a free one)")
    p.add_argument("--address", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")  # fmt: skip
    p.add_argument("--reports", type=Path, default=None,
                   help="folder of the reports shown (default: the project's reports/)")
    p.add_argument("--show", action="store_true", help="open the page in a browser")
    return p


@cli.one_line_errors
def main(argv=None) -> int:
    """Serve the page until Ctrl-C."""
    import panel as pn

    from tabletop.app import pages
    from tabletop.report import SEED_REPORT_DIR

    args = parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        raise cli.UsageError(f"--port must be 0..65535, got {args.port}")
    reports = args.reports if args.reports is not None else SEED_REPORT_DIR
    if not reports.is_dir():
        raise cli.UsageError(f"--reports: no such folder {str(reports)!r}")
    port = args.port or free_port(args.address)
    server = pn.serve(
        pages.routes(reports), port=port, address=args.address,
        websocket_origin=[f"{args.address}:{port}", f"localhost:{port}"],
        static_dirs={pages.REPORTS_ROUTE: str(reports)}, show=False, start=False,
        title="Tabletop odds",
    )  # fmt: skip
    server.start()
    print(f"The page is at http://{args.address}:{port}/ (Ctrl-C stops it)", flush=True)
    if args.show:
        server.show("/")
    try:
        server.io_loop.start()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
