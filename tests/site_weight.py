"""What a page costs a reader: bytes and requests on first load, and time on a slow line.

The site is served the way GitHub Pages serves it, text compressed with gzip
(:func:`serve_compressed`), and each page is opened in a fresh browser context
(an empty cache: a first visit). Chromium's DevTools protocol reports the bytes
each response really took on the wire (``encodedDataLength``: headers and the
compressed body).

Run as a script for the numbers the site test does not assert (a slow mobile
line takes tens of seconds per page)::

    .venv/bin/python tests/site_weight.py            # every page of _toc.yml
    .venv/bin/python tests/site_weight.py --slow     # plus the slow-line times
    .venv/bin/python tests/site_weight.py --waterfall book/02_geometry  # each request

"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

# GitHub Pages compresses text; images and fonts are sent as they are.
COMPRESSED_TYPES = (
    "text/",
    "application/javascript",
    "application/json",
    "image/svg+xml",
    "application/xml",
)
# "A slow mobile line" (issue 24): 400 ms round trip, 400 kbit/s each way, and a
# phone's CPU four times slower than this machine's. (Until November 2026 the
# line was DevTools' "Slow 4G", 150 ms and 1.6 Mbit/s down.)
SLOW_LINE = {
    "offline": False,
    "latency": 400,
    "downloadThroughput": 400e3 / 8,
    "uploadThroughput": 400e3 / 8,
}
SLOW_CPU = 4


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serve files without printing a log line for every request."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


class CompressingHandler(QuietHandler):
    """Serve files, text gzip-compressed when the browser accepts it; no log lines."""

    def send_head(self):  # noqa: ANN201 (the base class's signature)
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        content_type = self.guess_type(str(path))
        accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (path.is_file() and accepts_gzip and content_type.startswith(COMPRESSED_TYPES)):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@contextmanager
def serve(directory: Path, handler_class: type = QuietHandler) -> Iterator[str]:
    """Serve ``directory`` on a free localhost port with ``handler_class``; yield its URL."""
    handler = functools.partial(handler_class, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def serve_compressed(directory: Path):
    """Serve ``directory`` gzip-compressed (as a web server would); a context manager."""
    return serve(directory, CompressingHandler)


@dataclass
class Weight:
    """What one first visit of a page transferred."""

    bytes: int
    requests: int
    biggest: list[tuple[int, str]]  # (bytes, URL), the five heaviest responses

    def describe(self) -> str:
        heaviest = ", ".join(f"{url.rsplit('/', 1)[-1]} {size / 1e3:.0f} kB"
                             for size, url in self.biggest)  # fmt: skip
        return (f"{self.bytes / 1e6:.2f} MB in {self.requests} requests "
                f"(heaviest: {heaviest})")  # fmt: skip


# Records when the first screen is readable (issue 24): some of the text is on
# it, every formula on it is drawn and styled (an SVG or MathJax's own markup
# with a nonzero width, its screen-reader MathML hidden by MathJax's
# stylesheet, not shown a second time), no raw TeX is in its text, and the
# fonts have arrived. A page that shows raw TeX never becomes readable.
READABLE_SCRIPT = r"""(() => {
    const shown = (box) => box.width > 0 && box.bottom > 0 && box.top < innerHeight;
    const drawn = (e) => {
        const math = e.querySelector("mjx-container");
        const picture = math && math.querySelector("svg, mjx-math");
        const mml = math && math.querySelector("mjx-assistive-mml");
        return picture && picture.getBoundingClientRect().width > 0
            && (!mml || getComputedStyle(mml).position === "absolute");
    };
    const rawTex = () => {
        const skip = "mjx-container, pre, code, script, style, textarea";
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.parentElement.closest(skip)) continue;
            if (!/\\\(|\\\[|\$\$/.test(node.textContent)) continue;
            range.selectNodeContents(node);
            if ([...range.getClientRects()].some(shown)) return true;
        }
        return false;
    };
    const check = () => {
        const text = [...document.querySelectorAll(".bd-content p")]
            .some((e) => shown(e.getBoundingClientRect()));
        const missing = [...document.querySelectorAll(".math")]
            .some((e) => shown(e.getBoundingClientRect()) && !drawn(e));
        if (document.body && text && !missing && !rawTex()
                && document.fonts.status === "loaded") {
            window.__courseReadable = performance.now();
        } else {
            requestAnimationFrame(check);
        }
    };
    requestAnimationFrame(check);
})();"""


def _first_visit_page(context, *, slow: bool):
    """A new page of ``context`` that loads as a first visit; returns it and its CDP session.

    The browser cache is off and :data:`READABLE_SCRIPT` is installed; with ``slow``,
    the page runs on :data:`SLOW_LINE` with the CPU slowed :data:`SLOW_CPU` times.
    """
    page = context.new_page()
    page.add_init_script(READABLE_SCRIPT)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if slow:
        cdp.send("Network.emulateNetworkConditions", SLOW_LINE)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOW_CPU})
    return page, cdp


def measure(browser, url: str, *, viewport: dict, slow: bool = False) -> tuple[Weight, dict]:
    """Open ``url`` once with an empty cache; return its weight and its timings (ms).

    The timings are ``text`` (first paint of text: First Contentful Paint),
    ``largest`` (Largest Contentful Paint: the biggest text block or image),
    ``readable`` (the first screen shows text and no formula on it is left as
    raw TeX: :data:`READABLE_SCRIPT`; None if that never happened) and ``load``
    (the load event), measured on :data:`SLOW_LINE` when ``slow``.
    """
    context = browser.new_context(viewport=viewport)
    try:
        page, cdp = _first_visit_page(context, slow=slow)
        urls: dict[str, str] = {}
        sizes: dict[str, int] = {}
        cdp.on(
            "Network.requestWillBeSent",
            lambda event: urls.setdefault(event["requestId"], event["request"]["url"]),
        )
        cdp.on("Network.loadingFinished",
               lambda event: sizes.__setitem__(event["requestId"],
                                               int(event["encodedDataLength"])))  # fmt: skip
        page.goto(url, wait_until="load", timeout=120_000)
        page.wait_for_load_state("networkidle", timeout=120_000)
        timings = page.evaluate(
            """async () => {
                const paint = performance.getEntriesByName("first-contentful-paint")[0];
                const nav = performance.getEntriesByType("navigation")[0];
                const largest = await new Promise((resolve) => {
                    new PerformanceObserver((list) => {
                        const entries = list.getEntries();
                        resolve(entries[entries.length - 1].startTime);
                    }).observe({type: "largest-contentful-paint", buffered: true});
                    setTimeout(() => resolve(null), 1000);
                });
                return {text: paint ? paint.startTime : null, largest,
                        readable: window.__courseReadable ?? null,
                        load: nav ? nav.loadEventStart : null};
            }"""
        )
        requested = [rid for rid in urls if urls[rid].startswith("http")]
        biggest = sorted(((sizes.get(rid, 0), urls[rid]) for rid in requested), reverse=True)
        weight = Weight(sum(size for size, _ in biggest), len(requested), biggest[:5])
        return weight, timings
    finally:
        context.close()


WATERFALL_SCRIPT = """() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const rows = [nav, ...performance.getEntriesByType("resource")].map((e) => ({
        name: e.name, start: e.startTime, end: e.responseEnd,
        bytes: e.transferSize, blocking: e.renderBlockingStatus ?? "",
        type: e.initiatorType,
    }));
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    return {rows, text: paint ? paint.startTime : null,
            readable: window.__courseReadable ?? null};
}"""


def waterfall(browser, url: str, *, viewport: dict) -> str:
    """Every request of one first visit on :data:`SLOW_LINE`, in order, as text.

    Each line gives when the request started and ended (ms after navigation),
    the bytes it took (gzip, headers included) and whether the browser counted
    it as render-blocking (Resource Timing's ``renderBlockingStatus``).
    """
    context = browser.new_context(viewport=viewport)
    try:
        page, _ = _first_visit_page(context, slow=True)
        page.goto(url, wait_until="load", timeout=120_000)
        page.wait_for_load_state("networkidle", timeout=120_000)
        found = page.evaluate(WATERFALL_SCRIPT)
    finally:
        context.close()
    lines = [f"{'start':>6s} {'end':>6s} {'kB':>6s}  {'blocking':12s} file"]
    for row in sorted(found["rows"], key=lambda row: row["start"]):
        name = row["name"].split("?")[0].rsplit("/", 1)[-1][:60]
        lines.append(f"{row['start']:6.0f} {row['end']:6.0f} {row['bytes'] / 1e3:6.1f}  "
                     f"{row['blocking'] or row['type']:12s} {name}")  # fmt: skip
    for key in ("text", "readable"):
        value = found[key]
        lines.append(f"{key}: " + (f"{value:.0f} ms" if value is not None else "never"))
    return "\n".join(lines)


def main() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from headless_chromium import headless_chromium
    from toc import ROOT, toc_files

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", action="store_true", help="also time a slow mobile line")
    parser.add_argument("--waterfall", action="store_true",
                        help="list each request of a first visit on the slow line")  # fmt: skip
    parser.add_argument("--html", type=Path, help="the built site (default: _build/html)")
    parser.add_argument("pages", nargs="*", help="docnames (default: every page)")
    options = parser.parse_args()
    with (
        serve_compressed(options.html or ROOT / "_build" / "html") as site,
        headless_chromium() as browser,
    ):
        for docname in options.pages or toc_files():
            url = urljoin(site, f"{docname}.html")
            if options.waterfall:
                print(docname, waterfall(browser, url, viewport={"width": 390, "height": 844}),
                      sep="\n", flush=True)  # fmt: skip
                continue
            weight, _ = measure(browser, url, viewport={"width": 390, "height": 844})
            line = f"{docname:40s} {weight.describe()}"
            if options.slow:
                _, slow = measure(browser, url, viewport={"width": 390, "height": 844}, slow=True)
                line += (
                    f"; slow line: first text {slow['text'] / 1e3:.1f} s, "
                    f"largest text/image {slow['largest'] / 1e3:.1f} s, "
                    + (
                        f"first screen readable (maths typeset) {slow['readable'] / 1e3:.1f} s, "
                        if slow["readable"] is not None
                        else "first screen never readable, "
                    )
                    + f"load {slow['load'] / 1e3:.1f} s"
                )
            print(line, flush=True)
        browser.close()


if __name__ == "__main__":
    main()
