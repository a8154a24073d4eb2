"""The built book, tested in a real browser the way a reader meets it.

The site in ``_build/html`` (built here only if it is missing) is served on
localhost and opened in Debian's Chromium, headless, through Playwright. The
machine that runs this has no internet, like a classroom or a downloaded copy
of the site: whatever a page needs must come from the site itself.

For every page of ``_toc.yml``, :func:`check_page` reports, in words that name
the page and the reason:

- failed requests for the site's own files, requests to other sites, and
  JavaScript errors in the console;
- math that MathJax has not typeset (raw ``$...$`` or ``\\(...\\)`` left in the
  text, or a TeX error);
- images that did not load, have no alt text, or have a transparent background
  (unreadable in the dark theme);
- dead widgets (a widget needs a kernel: chapters show a static counterpart),
  and saved widget state, useless without them;
- the Colab install cell, if it shows;
- launch (Binder, Colab, Thebe), repository and download buttons that are
  missing or do not point at the repository of ``_config.yml`` (a site built
  without ``REPOSITORY`` for the placeholder ``OWNER`` must say so in its launch
  menu instead of linking to ``OWNER``); a chapter's Colab button opens its
  Colab edition ``colab/<stem>.ipynb``, and no other page has one;
- solutions that are not collapsed, or do not open on click;
- animations whose "next frame" button does not change the frame, or its
  alt text (each frame is described), or whose slider has no label; a chapter
  (a page whose file name starts with two digits) must have one.

Thebe's own JavaScript comes from a CDN, but only when a reader presses
"Live code", which needs the internet anyway (it starts a kernel on Binder):
the test checks the button is there and does not press it. Every other request
to another site fails the test.

The search page must find "margin" and list chapter pages. Every page is also
photographed at desktop and phone widths, in the light and the dark theme,
into ``_build/screenshots/`` for people to look at; the phone view must not
scroll sideways, and the dark view must really be dark.

What a reader does (the checks are in ``tests/site_reader.py``): at phone
width, open the chapter menu and go to another chapter through it, open the
"on this page" menu and jump to a section; run axe-core on every page, light
and dark, phone and desktop, and fail on a serious or critical violation;
keep every page's first visit, served gzip-compressed, within its budget of
bytes and requests; no element wider than a 390 px phone except inside a
scroll container that says so; in the dark theme, animation controls drawn
for a dark page. Animations load when the reader reaches them: every check
first scrolls them into view (:func:`open_page`).

A phone reader on a slow line (issue 24, the checks are in ``tests/site_phone.py``):
no norm drawn with ``\\left\\lVert``, figures with width and height; at phone
width no short formula boxed and no two regions with one name, every display
formula of a proof within its proof box, a visible "tap to
enlarge" button under every shrunk figure, no animation control covered when the
reader scrolls back up; a chapter read from disk says its animation did not load.

The last tests serve small broken pages and check that each check reports its
fault, so that a passing run means something.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest
import yaml
from headless_chromium import headless_chromium
from PIL import Image  # a dependency of matplotlib
from playwright import sync_api
from site_phone import (
    FULL_ICON_FONT,
    animation_density_problems,
    covered_control_problems,
    critical_path_problems,
    enlarge_cue_problems,
    failed_animation_problems,
    figure_size_problems,
    first_screen_tex_problems,
    formula_box_problems,
    icon_problems,
    norm_problems,
    proof_formula_problems,
    raw_tex_in_html,
)
from site_reader import (
    axe_problems,
    budget_for,
    chapter_menu_problems,
    dark_animation_problems,
    overflow_problems,
    page_menu_problems,
    tap_target_problems,
    weight_problems,
)
from site_weight import measure, serve, serve_compressed
from toc import ROOT, toc_files

sys.path.insert(0, str(ROOT / "scripts" / "site"))
from repository_from_env import UNSET_TEXT, is_placeholder  # noqa: E402

HTML_DIR = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 15_000
# A full-page photograph of a long chapter is an artefact for people to look at, not a
# measured property: on a loaded machine it can take longer than a page load may.
SCREENSHOT_TIMEOUT_MS = 90_000
BOOK_PDF = "perceptron-course.pdf"  # make pdf and the deploy workflow put it there


# --------------------------------------------------------------------------
# What the pages should point at: the repository settings of _config.yml
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Repository:
    """The repository and launch services that a page's buttons point at."""

    url: str
    branch: str
    binderhub_url: str
    colab_url: str = "https://colab.research.google.com"

    @classmethod
    def from_config(cls, config_path: Path = ROOT / "_config.yml") -> Repository:
        """Read the repository and launch-button settings of ``_config.yml``."""
        config = yaml.safe_load(config_path.read_text())
        repository, launch = config["repository"], config["launch_buttons"]
        # The build takes REPOSITORY=owner/name over the file (a fork's deploy).
        from_env = os.environ.get("REPOSITORY", "").strip()
        return cls(
            url=f"https://github.com/{from_env}" if from_env else repository["url"].rstrip("/"),
            branch=repository.get("branch", "main"),
            binderhub_url=launch["binderhub_url"].rstrip("/"),
            colab_url=launch["colab_url"].rstrip("/"),
        )

    @property
    def placeholder(self) -> bool:
        """Built for the placeholder owner ``OWNER``: the launch menu says what is missing."""
        return is_placeholder(self.url)

    def binder_link(self, docname: str) -> str:
        """Binder, opening the notebook in JupyterLab."""
        owner_repo = urlparse(self.url).path.strip("/")
        path = f"{owner_repo}/{self.branch}?urlpath=lab/tree/{docname}.ipynb"
        return f"{self.binderhub_url}/v2/gh/{path}"

    def colab_link(self, docname: str) -> str:
        """Colab, opening the chapter's Colab edition (colab/<stem>.ipynb)."""
        owner_repo = urlparse(self.url).path.strip("/")
        stem = Path(docname).name
        return f"{self.colab_url}/github/{owner_repo}/blob/{self.branch}/colab/{stem}.ipynb"


def is_chapter(docname: str) -> bool:
    """A chapter is a page whose file name starts with two digits (``book/03_...``)."""
    return re.match(r"\d\d", Path(docname).name) is not None


def source_suffix(docname: str) -> str:
    """The suffix of the page's source file: ``.ipynb``, ``.md``..."""
    for suffix in (".ipynb", ".md", ".rst"):
        if (ROOT / f"{docname}{suffix}").exists():
            return suffix
    return ".md"  # the small test pages below


def is_notebook(docname: str) -> bool:
    """Whether the page is built from a notebook (and so has launch buttons)."""
    return source_suffix(docname) == ".ipynb"


# --------------------------------------------------------------------------
# Serving a folder and watching a page load
# --------------------------------------------------------------------------


@dataclass
class LoadWatch:
    """What went wrong on the network and in the console while a page loaded."""

    origin: str
    problems: list[str] = field(default_factory=list)

    def attach(self, page) -> None:
        page.on("requestfailed", self._on_failed)
        page.on("response", self._on_response)
        page.on("request", self._on_request)
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.problems.append(f"JavaScript error: {error}"))

    def _own(self, url: str) -> bool:
        return url.startswith(self.origin)

    def _on_failed(self, request) -> None:
        if self._own(request.url):
            self.problems.append(f"failed request {request.url} ({request.failure})")

    def _on_response(self, response) -> None:
        if self._own(response.url) and response.status >= 400:
            self.problems.append(f"HTTP {response.status} for {response.url}")

    def _on_request(self, request) -> None:
        if request.url.startswith("http") and not self._own(request.url):
            self.problems.append(
                f"request to another site: {request.url} (the book must read offline)"
            )

    def _on_console(self, message) -> None:
        if message.type == "error":
            where = message.location.get("url", "")
            self.problems.append(f"console error: {message.text} ({where})")


def open_page(page, url: str) -> LoadWatch:
    """Load ``url`` and wait until MathJax (if the page has it) has typeset."""
    parsed = urlparse(url)
    watch = LoadWatch(origin=f"{parsed.scheme}://{parsed.netloc}/")
    watch.attach(page)
    page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
    page.evaluate(
        """async () => {
            const startup = window.MathJax && window.MathJax.startup;
            if (startup && startup.promise) await startup.promise;
        }"""
    )
    load_lazy_animations(page)
    load_lazy_images(page)
    return watch


def load_lazy_images(page) -> None:
    """Load every figure now, as a reader scrolling through the page would
    (the figures are ``loading="lazy"``, scripts/site/critical_path.py)."""
    page.evaluate(
        """async () => {
            const images = [...document.images];
            for (const img of images) img.loading = "eager";
            await Promise.all(images.filter((img) => !img.complete).map((img) =>
                new Promise((done) => { img.onload = img.onerror = done; })));
        }"""
    )


def load_lazy_animations(page) -> None:
    """Scroll to each animation that waits for the reader, until it has loaded."""
    placeholders = page.locator(".lazy-animation")
    for index in range(placeholders.count()):
        placeholders.nth(index).scroll_into_view_if_needed()
    if placeholders.count():
        page.wait_for_function(
            """() => [...document.querySelectorAll(".lazy-animation")]
                .every((e) => e.querySelector(".animation") || e.dataset.failed)"""
        )
        page.evaluate("window.scrollTo(0, 0)")


# --------------------------------------------------------------------------
# The checks: each returns a list of problems, in words
# --------------------------------------------------------------------------

MATH_PROBLEMS_JS = r"""() => {
    const problems = [];
    const raw = [...document.querySelectorAll(".math")]
        .filter((e) => !e.querySelector("mjx-container"));
    if (raw.length) {
        problems.push(`${raw.length} formula(s) not typeset by MathJax, the first: `
            + raw[0].textContent.trim().slice(0, 60));
    }
    for (const error of document.querySelectorAll("mjx-merror")) {
        problems.push(`TeX error: ${error.getAttribute("data-mjx-error") || error.textContent}`);
    }
    // Text that MathJax should have turned into math: look outside code and
    // outside what MathJax already rendered.
    const text = document.body.cloneNode(true);
    text.querySelectorAll("mjx-container, pre, code, script, style, textarea")
        .forEach((e) => e.remove());
    const match = text.textContent.match(/\$[^$\n]{1,200}\$|\\\(|\\\[|\\begin\{/);
    if (match) problems.push(`raw TeX in the text: ${match[0].slice(0, 60)}`);
    return problems;
}"""

IMAGE_PROBLEMS_JS = r"""() => {
    const problems = [];
    const fileName = /\.(png|jpe?g|gif|svg|webp)$/i;
    for (const img of document.images) {
        const name = (img.getAttribute("src") || "").slice(0, 80);
        if (!img.complete || img.naturalWidth === 0) {
            problems.push(`image did not load: ${name}`);
            continue;
        }
        const alt = (img.getAttribute("alt") || "").trim();
        if (!alt || fileName.test(alt) || alt === img.getAttribute("src")) {
            problems.push(`image without alt text: ${name}`);
        }
        // A figure with a transparent background shows dark lines on the dark
        // theme's dark page. Look at the corners of the article's raster images.
        if (!img.closest("article") || /\.svg/i.test(name)) continue;
        const canvas = document.createElement("canvas");
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const context = canvas.getContext("2d");
        context.drawImage(img, 0, 0);
        const w = canvas.width - 1, h = canvas.height - 1;
        const corners = [[0, 0], [w, 0], [0, h], [w, h]];
        if (corners.some(([x, y]) => context.getImageData(x, y, 1, 1).data[3] < 255)) {
            problems.push(`image with a transparent background: ${name}`);
        }
    }
    return problems;
}"""

WIDGET_PROBLEMS_JS = r"""() => {
    const problems = [];
    const views = document.querySelectorAll(
        'script[type="application/vnd.jupyter.widget-view+json"], .jupyter-widgets');
    if (views.length) problems.push(`${views.length} widget view(s) on the page`);
    // Saved widget state (tens of kB) is useless without the widgets.
    if (document.querySelector('script[type="application/vnd.jupyter.widget-state+json"]')) {
        problems.push("unused widget state in the page (scripts/site/offline_site.py drops it)");
    }
    // Without its JavaScript a widget falls back to its text repr.
    const widget = "(interactive|\\w+(Box|Slider|Dropdown|Button|Text|Output|Play))";
    const repr = new RegExp(`\\b${widget}\\((children|value|description|options)=`);
    for (const output of document.querySelectorAll(".cell_output, .output")) {
        const match = output.textContent.match(repr);
        if (match) { problems.push(`dead widget shown as text: ${match[0]}...`); break; }
    }
    for (const cell of document.querySelectorAll(".cell")) {
        if (cell.textContent.includes("google.colab")) {
            problems.push("the Colab install cell shows (tag it remove-cell)");
        }
    }
    return problems;
}"""


def math_problems(page) -> list[str]:
    """Formulas left untypeset, TeX errors, raw TeX in the text."""
    return page.evaluate(MATH_PROBLEMS_JS)


def image_problems(page) -> list[str]:
    """Images not loaded, without alt text, or with a transparent background."""
    return page.evaluate(IMAGE_PROBLEMS_JS)


def widget_problems(page) -> list[str]:
    """Dead widgets, and the Colab install cell if it shows."""
    return page.evaluate(WIDGET_PROBLEMS_JS)


def button_problems(page, docname: str, repository: Repository) -> list[str]:
    """Repository, download and (for notebooks) launch buttons, with the right URLs."""
    problems = []
    links = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
    if repository.url not in links:
        problems.append(f"no repository button linking to {repository.url}")
    source = source_suffix(docname)
    downloads = [link for link in links if link.endswith(f"_sources/{docname}{source}")]
    if not downloads:
        problems.append(f"no download button for the page's {source} source")
    else:
        response = page.request.get(downloads[0])
        if response.status != 200 or not response.body():
            problems.append(f"download {downloads[0]} answers HTTP {response.status}")
    # The download menu offers the book's PDF when the site has it (course.js),
    # and prints the page otherwise.
    pdf_links = [link for link in links if link.endswith(f"/{BOOK_PDF}")]
    if page.locator("button[onclick*='print']").count() == 0 and not pdf_links:
        problems.append("no PDF (print) download button")
    if (HTML_DIR / BOOK_PDF).exists() and not pdf_links:
        problems.append(f"the site has {BOOK_PDF} but the download menu does not offer it")
    colab = [link for link in links if "colab.research" in link]
    if colab and (repository.placeholder or not is_chapter(docname)):
        problems.append(f"a Colab button on a page that cannot have one: {colab}")
    if is_notebook(docname) and repository.placeholder:
        binder = [link for link in links if "mybinder" in link]
        if binder:
            problems.append(f"Binder button links to the placeholder repository: {binder}")
        text = page.content()
        services = (
            ("Binder", "Colab", "Live code") if is_chapter(docname) else ("Binder", "Live code")
        )
        for service in services:
            if UNSET_TEXT.format(service=service) not in text:
                problems.append(f"the launch menu does not say that {service} is not set up")
    elif is_notebook(docname):
        expected = repository.binder_link(docname)
        if expected not in links:
            found = [link for link in links if "binder" in link.lower()]
            problems.append(f"Binder button should link to {expected}, found {found}")
        if is_chapter(docname) and repository.colab_link(docname) not in links:
            problems.append(
                f"Colab button should link to {repository.colab_link(docname)}, found {colab}"
            )
        if page.locator(".btn-launch-thebe").count() == 0:
            problems.append("no Thebe (Live code) launch button")
    return problems


def solution_problems(page) -> list[str]:
    """Every solution starts collapsed and opens when its title is clicked."""
    problems = []
    solutions = page.locator(".solution")
    for index in range(solutions.count()):
        solution = solutions.nth(index)
        title = solution.locator(".admonition-title").first.inner_text().strip()
        body = solution.locator(":scope > :not(.admonition-title)").first
        if body.is_visible():
            problems.append(f"solution '{title}' is open on load (use :class: dropdown)")
            continue
        # Click the chevron a reader sees ("Click to show"); a plain test page has none.
        toggle = solution.locator(".toggle-button")
        (toggle if toggle.count() else solution.locator(".admonition-title")).first.click()
        try:
            body.wait_for(state="visible", timeout=2_000)
        except sync_api.TimeoutError:
            problems.append(f"solution '{title}' does not open on click")
    return problems


def animation_problems(page, *, required: bool) -> list[str]:
    """Each jshtml animation changes its frame on "next frame"; chapters need one."""
    animations = page.locator("div.animation")
    if animations.count() == 0:
        return ["a chapter page without an animation"] if required else []
    problems = []
    for index in range(animations.count()):
        animation = animations.nth(index)
        frame = animation.locator('img[id^="_anim_img"]')
        before, alt_before = frame.get_attribute("src"), frame.get_attribute("alt")
        animation.locator('button[title="Next frame"]').click()
        try:
            page.wait_for_function(
                "([img, before]) => img.getAttribute('src') !== before",
                arg=[frame.element_handle(), before],
                timeout=2_000,
            )
        except sync_api.TimeoutError:
            problems.append(f"animation {index + 1}: 'Next frame' does not change the frame")
            continue
        # Each frame is described: its alt text changes with it, and the
        # slider that picks a frame has a label.
        if frame.get_attribute("alt") == alt_before:
            problems.append(f"animation {index + 1}: every frame has the same alt text")
        slider = animation.locator("input.anim-slider")
        if slider.count() and not (slider.first.get_attribute("aria-label") or "").strip():
            problems.append(f"animation {index + 1}: its slider has no label")
    return problems


def check_page(
    page,
    url: str,
    docname: str,
    repository: Repository | None,
    screenshot: Path | None = None,
) -> list[str]:
    """Load one page and return every problem found on it (empty: the page is fine).

    ``repository`` None skips the buttons (for the small test pages below).
    The screenshot is taken before the checks that click.
    """
    watch = open_page(page, url)
    problems = math_problems(page) + image_problems(page) + widget_problems(page)
    problems += norm_problems(page) + figure_size_problems(page)
    problems += animation_density_problems(page)
    if repository is not None:
        problems += button_problems(page, docname, repository)
    if screenshot is not None:
        page.screenshot(path=screenshot, full_page=True, timeout=SCREENSHOT_TIMEOUT_MS)
    problems += solution_problems(page)
    problems += animation_problems(page, required=is_chapter(docname))
    return watch.problems + problems


PHONE_PROBLEMS_JS = r"""() => {
    const problems = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) {
        const wide = [...document.querySelectorAll("body *")].find(
            (e) => e.getBoundingClientRect().right > width + 1);
        const name = wide ? `${wide.tagName.toLowerCase()}.${wide.className}` : "?";
        problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth}px `
            + `on a ${width}px phone), the first wide element: ${name}`);
    }
    // Wide tables and code may scroll in their own box, but an animation's
    // controls must all be reachable without scrolling.
    for (const button of document.querySelectorAll(".animation .anim-buttons button")) {
        if (button.getBoundingClientRect().right > width + 1) {
            problems.push(`an animation's "${button.title}" button is off the screen`);
            break;
        }
    }
    return problems;
}"""


def phone_problems(page) -> list[str]:
    """Sideways scrolling, and animation controls beyond the screen's edge."""
    return page.evaluate(PHONE_PROBLEMS_JS)


# --------------------------------------------------------------------------
# Fixtures: the built site, a server, a browser
# --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """Serve ``_build/html``, building it first if it is missing."""
    if not (HTML_DIR / "index.html").exists():
        subprocess.run(
            [Path(sys.executable).parent / "jupyter-book", "build", ".", "--path-output", "."],
            cwd=ROOT,
            check=True,
        )
    with serve(HTML_DIR) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless (Playwright's own browser download fails here)."""
    with headless_chromium() as browser:
        yield browser


@contextmanager
def new_page(browser, viewport: dict, color_scheme: str = "light"):
    """A fresh page (no shared storage) of the given size and color scheme."""
    context = browser.new_context(viewport=viewport, color_scheme=color_scheme)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def screenshot_path(docname: str, view: str) -> Path:
    """Where the screenshot of one view of a page goes (``book__01_x--phone-dark.png``)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{docname.replace('/', '__')}--{view}.png"


# --------------------------------------------------------------------------
# The site
# --------------------------------------------------------------------------

PAGES = toc_files()


@pytest.mark.parametrize("docname", PAGES)
def test_page(docname: str, site_url: str, browser) -> None:
    """Every check of :func:`check_page`, at desktop width in the light theme."""
    with new_page(browser, DESKTOP) as page:
        url = urljoin(site_url, f"{docname}.html")
        screenshot = screenshot_path(docname, "desktop-light")
        problems = check_page(page, url, docname, Repository.from_config(), screenshot)
        problems += [f"desktop-light: {problem}" for problem in axe_problems(page)]
    assert not problems, f"{docname}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("docname", PAGES)
def test_page_views(docname: str, site_url: str, browser) -> None:
    """Phone and dark views: photographed, no sideways scrolling or overflowing element,
    really dark, dark animation controls; axe-core on phone light and dark, desktop dark."""
    problems = []
    for scheme in ("light", "dark"):
        with new_page(browser, PHONE, scheme) as page:
            view = f"phone-{scheme}"
            watch = open_page(page, urljoin(site_url, f"{docname}.html"))
            theme = page.evaluate("document.documentElement.dataset.theme")
            if theme != scheme:
                problems.append(f"{view}: the theme is {theme!r}")
            problems += [f"{view}: {problem}" for problem in phone_problems(page)]
            problems += [f"{view}: {problem}" for problem in overflow_problems(page)]
            problems += [f"{view}: {problem}" for problem in tap_target_problems(page)]
            if scheme == "light":
                for check in (formula_box_problems, enlarge_cue_problems, proof_formula_problems):
                    problems += [f"{view}: {problem}" for problem in check(page)]
            page.screenshot(
                path=screenshot_path(docname, view), full_page=True, timeout=SCREENSHOT_TIMEOUT_MS
            )
            problems += [f"{view}: {problem}" for problem in axe_problems(page)]
            if scheme == "light":  # scrolls: after the screenshot
                problems += [f"{view}: {problem}" for problem in covered_control_problems(page)]
            if scheme == "dark":
                problems += [f"{view}: {problem}" for problem in dark_animation_problems(page)]
                # The layout follows the width: no need to load the page again.
                page.set_viewport_size(DESKTOP)
                page.screenshot(
                    path=screenshot_path(docname, "desktop-dark"),
                    full_page=True,
                    timeout=SCREENSHOT_TIMEOUT_MS,
                )
                problems += [f"desktop-dark: {problem}" for problem in axe_problems(page)]
            problems += [f"{scheme}: {problem}" for problem in watch.problems]
    assert not problems, f"{docname}:\n  " + "\n  ".join(problems)


@pytest.fixture(scope="session")
def compressed_site_url(site_url: str) -> Iterator[str]:
    """The built site served gzip-compressed, as GitHub Pages serves it."""
    with serve_compressed(HTML_DIR) as url:
        yield url


@pytest.mark.parametrize("docname", PAGES)
def test_page_weight(docname: str, compressed_site_url: str, browser) -> None:
    """A first visit on a phone stays within the page's budget of bytes and requests."""
    url = urljoin(compressed_site_url, f"{docname}.html")
    budget = budget_for(docname, is_chapter(docname))
    problems, weight = weight_problems(browser, url, budget, PHONE)
    print(f"{docname}: {weight.describe()}")  # shown with pytest -s
    assert not problems, f"{docname}:\n  " + "\n  ".join(problems)


def course_macros() -> list[str]:
    """The names of the course's TeX macros (``mathjax3_config`` in ``_config.yml``)."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    return list(config["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"])


def test_no_built_page_has_raw_tex(site_url: str) -> None:
    """Every formula of every built page was rendered when the book was built: no
    ``\\(``, ``\\[``, ``$$``, environment or course macro left in any page's text."""
    macros = course_macros()
    pages = sorted(HTML_DIR.rglob("*.html"))
    problems = [
        f"{page.relative_to(HTML_DIR)}: {problem}"
        for page in pages
        for problem in raw_tex_in_html(page.read_text(encoding="utf-8"), macros)
    ]
    assert len(pages) >= len(PAGES)
    assert not problems, "\n  ".join(problems[:20])


@pytest.mark.parametrize(
    ("snippet", "expected"),
    [
        ('<span class="math">\\(\\gamma\\)</span>', "\\(\\gamma\\)"),
        ('<div class="math">\\[\\vw \\cdot \\vx\\]</div>', "\\["),
        ("<p>$$x$$</p>", "$$"),
        ("<p>\\begin{align}x\\end{align}</p>", "\\begin{"),
        ("<p>A caption with \\norm{x} in it.</p>", "\\norm"),
        ("<mjx-container>ok</mjx-container><pre>\\(code\\)</pre><p>$5, $6</p>", None),
    ],
)
def test_the_raw_tex_check_reports_unrendered_text(snippet: str, expected: str | None) -> None:
    problems = raw_tex_in_html(f"<html><body>{snippet}</body></html>", course_macros())
    if expected is None:
        assert problems == []
    else:
        assert any(expected in problem for problem in problems), problems


def test_the_slow_line_benchmark_waits_for_drawn_maths(tmp_path: Path, browser) -> None:
    """``site_weight.py --slow`` counts a first screen readable only once its formulas are
    drawn and styled: never on a page of raw TeX, nor while a formula's screen-reader
    MathML shows unstyled; at once on a page whose formulas were rendered at build."""
    mml = "<mjx-assistive-mml><math><mi>x</mi></math></mjx-assistive-mml>"
    svg = '<svg width="10" height="10"></svg>'
    hide = "<style>mjx-assistive-mml { position: absolute; clip: rect(1px, 1px, 1px, 1px) }"
    pages = {
        "drawn": f'{hide}</style><span class="math"><mjx-container>{svg}{mml}'
        "</mjx-container></span>",
        "raw": '<span class="math">\\(\\gamma\\)</span>',
        "unstyled": f'<span class="math"><mjx-container>{svg}{mml}</mjx-container></span>',
        "raw_text": "\\(\\gamma\\) in a caption",
    }
    readable = {}
    with serve(tmp_path) as url:
        for name, snippet in pages.items():
            page_html = f'<div class="bd-content"><p>Text and a formula {snippet}.</p></div>'
            (tmp_path / f"{name}.html").write_text(
                READER_PAGE.format(title=name, snippet=page_html)
            )
            _, timings = measure(browser, f"{url}{name}.html", viewport=PHONE)
            readable[name] = timings["readable"]
    assert readable["drawn"] is not None, readable
    assert [readable[name] for name in ("raw", "unstyled", "raw_text")] == [None] * 3, readable


@pytest.mark.parametrize("docname", PAGES)
def test_first_screen_shows_maths_without_javascript(docname: str, site_url: str, browser) -> None:
    """At 390x844 with JavaScript off, the first screen shows no TeX: the maths needs no
    script (no MathJax is loaded), and each formula carries MathML for screen readers."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(urljoin(site_url, f"{docname}.html"), wait_until="load")
        problems = first_screen_tex_problems(page)
    finally:
        context.close()
    assert not problems, f"{docname}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("docname", PAGES)
def test_first_paint_waits_for_one_stylesheet(docname: str, site_url: str, browser) -> None:
    """The first screen waits for one stylesheet and no script; the figures load when
    they are near; the rules loaded after the first paint match nothing on the page."""
    with new_page(browser, PHONE) as page:
        page.goto(urljoin(site_url, f"{docname}.html"), wait_until="load")
        problems = critical_path_problems(page)
    assert not problems, f"{docname}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("docname", PAGES)
def test_header_icons_come_from_a_subset_font(docname: str, site_url: str, browser) -> None:
    """Each header button's icon is drawn, with a size and a name, by the icon font the
    build cut down to the icons the site uses; no page asks for a full icon font."""
    with new_page(browser, PHONE) as page:
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        open_page(page, urljoin(site_url, f"{docname}.html"))
        problems = icon_problems(page)
        page.set_viewport_size(DESKTOP)
        problems += [f"desktop: {problem}" for problem in icon_problems(page)]
    problems += [f"a full icon font requested: {url}" for url in requested
                 if FULL_ICON_FONT.search(url)]  # fmt: skip
    assert not problems, f"{docname}:\n  " + "\n  ".join(problems)


def icon_page(folder: Path, name: str, codepoints: set[int], button: str) -> None:
    """A header with one icon button, drawn by a subset of Font Awesome's solid font."""
    sys.path.insert(0, str(ROOT / "scripts" / "site"))
    import icon_font  # noqa: PLC0415 (a build script, not a library)
    import pydata_sphinx_theme  # noqa: PLC0415

    theme = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme"
    source = theme / "static" / "vendor" / "fontawesome" / "webfonts" / "fa-solid-900.ttf"
    icon_font.subset_font(source, folder / f"{name}.woff", codepoints)
    style = (
        "<style>@font-face { font-family: Icons; font-weight: 900; "
        f'src: url({name}.woff) format("woff") }}'
        ".fa-solid { font: 900 20px Icons } .fa-bars::before { content: '\\f0c9' }</style>"
    )
    header = f'<div class="bd-header-article">{button}</div>'
    (folder / f"{name}.html").write_text(READER_PAGE.format(title=name, snippet=style + header))


def test_the_icon_check_fails_on_a_missing_glyph_or_name(tmp_path: Path, browser) -> None:
    named = '<button aria-label="Menu"><i class="fa-solid fa-bars"></i></button>'
    icon_page(tmp_path, "good", {0xF0C9}, named)
    icon_page(tmp_path, "missing", {0xF002}, named)  # the font has the magnifier only
    icon_page(tmp_path, "unnamed", {0xF0C9}, '<button><i class="fa-solid fa-bars"></i></button>')
    found = {}
    with serve(tmp_path) as url, new_page(browser, PHONE) as page:
        for name in ("good", "missing", "unnamed"):
            page.goto(f"{url}{name}.html", wait_until="load")
            found[name] = icon_problems(page)
    assert found["good"] == [], found
    assert any("missing from its font" in problem for problem in found["missing"]), found
    assert any("without a name" in problem for problem in found["unnamed"]), found
    assert FULL_ICON_FONT.search("/_static/vendor/fontawesome/webfonts/fa-solid-900.woff2?v=1")
    assert not FULL_ICON_FONT.search("/webfonts/fa-solid-900.subset.woff")


def test_phone_menus_take_the_reader_to_a_chapter_and_a_section(site_url: str, browser) -> None:
    """At 390 px: the chapter menu goes to another chapter, whose "on this page"
    menu jumps to a section."""
    chapters = [docname for docname in PAGES if is_chapter(docname)] or PAGES[1:]
    assert chapters, "no page to navigate to"
    start, target = PAGES[0], chapters[-1]
    with new_page(browser, PHONE) as page:
        watch = open_page(page, urljoin(site_url, f"{start}.html"))
        problems = chapter_menu_problems(page, urljoin(site_url, f"{target}.html"))
        if not problems:
            problems = page_menu_problems(page)
    assert not problems + watch.problems, problems + watch.problems


def test_a_tap_enlarges_a_shrunk_figure_on_a_phone(site_url: str, browser) -> None:
    """A multi-panel figure drawn smaller than its pixels opens, readable, on a tap."""
    chapters = [docname for docname in PAGES if is_chapter(docname)]
    if not chapters:
        pytest.skip("no chapter yet")
    with new_page(browser, PHONE) as page:
        open_page(page, urljoin(site_url, f"{chapters[0]}.html"))
        images = page.locator(".bd-content figure img, .bd-content .cell_output img")
        index = page.evaluate(
            """() => [...document.querySelectorAll(
                    ".bd-content figure img, .bd-content .cell_output img")]
                .findIndex((img) => !img.closest(".animation")
                    && img.naturalWidth >= 1.3 * img.clientWidth)"""
        )
        assert index >= 0, "no figure drawn smaller than its pixels on a phone"
        image = images.nth(index)
        image.scroll_into_view_if_needed()
        image.click()
        zoom = page.locator("dialog.course-figure-zoom[open]")
        zoom.wait_for(state="visible", timeout=2_000)
        shown = zoom.locator("img").evaluate("img => img.getBoundingClientRect().width")
        assert shown > PHONE["width"], f"the enlarged figure is only {shown}px wide"
        assert zoom.locator("img").get_attribute("alt") == image.get_attribute("alt")
        zoom.get_by_role("button", name="Close").click()
        zoom.wait_for(state="detached", timeout=2_000)


def test_search_finds_margin_in_chapters(site_url: str, browser) -> None:
    with new_page(browser, DESKTOP) as page:
        watch = open_page(page, urljoin(site_url, "search.html?q=margin"))
        page.wait_for_selector("#search-results p.search-summary:not(:empty)")
        page.wait_for_function(
            "!document.querySelector('#search-results .search-summary')"
            ".textContent.includes('Preparing')"
        )
        found = page.eval_on_selector_all(
            "#search-results ul.search li a", "links => links.map(a => a.getAttribute('href'))"
        )
    assert not watch.problems, watch.problems
    assert found, "the search for 'margin' found nothing"
    chapters = [docname for docname in PAGES if is_chapter(docname)]
    if chapters:
        found_chapters = [href for href in found if is_chapter(href.split("?")[0])]
        assert found_chapters, f"the search for 'margin' lists no chapter page: {found}"


# --------------------------------------------------------------------------
# The checks fail when they should: small broken pages
# --------------------------------------------------------------------------

GOOD_PAGE = """<!DOCTYPE html><html><head><title>fine</title><link rel="icon" href="dot.png">
</head><body>
<p>Costs nothing. <img src="dot.png" alt="A black dot."></p>
<div class="cell"><div class="cell_output"><pre>42</pre></div></div>
</body></html>"""

BROKEN_PAGES = {
    "broken_image.html": ('<img src="missing.png" alt="gone">', "image did not load"),
    "no_alt.html": ('<img src="dot.png">', "image without alt text"),
    "file_name_alt.html": ('<img src="dot.png" alt="dot.png">', "image without alt text"),
    "raw_dollar.html": ("<p>The activation $a = w x + b$ is raw.</p>", "raw TeX in the text"),
    "raw_paren.html": ("<p>The activation \\(a = w x\\) is raw.</p>", "raw TeX in the text"),
    "js_error.html": ("<script>undefinedFunction()</script>", "JavaScript error"),
    "console_error.html": ("<script>console.error('boom')</script>", "console error"),
    "missing_script.html": ('<script src="gone.js"></script>', "HTTP 404"),
    "other_site.html": (
        '<link rel="stylesheet" href="https://cdn.example.invalid/x.css">',
        "request to another site",
    ),
    "dead_widget.html": (
        '<div class="cell_output"><pre>interactive(children=(IntSlider(value=2),))</pre></div>',
        "dead widget",
    ),
    "widget_state.html": (
        '<script type="application/vnd.jupyter.widget-state+json">{"state": {}}</script>',
        "unused widget state",
    ),
    "colab_cell.html": (
        "<div class='cell'><pre>if 'google.colab' in sys.modules: pass</pre></div>",
        "Colab install cell",
    ),
    "open_solution.html": (
        '<div class="solution admonition"><p class="admonition-title">Solution</p>'
        "<p>The answer.</p></div>",
        "is open on load",
    ),
    "stuck_solution.html": (
        '<div class="solution admonition"><p class="admonition-title">Solution</p>'
        '<p style="display:none">The answer.</p></div>',
        "does not open on click",
    ),
    "01_no_animation.html": ("<p>A chapter.</p>", "chapter page without an animation"),
    "stuck_animation.html": (
        '<div class="animation"><img id="_anim_img1" src="dot.png" alt="frame">'
        '<button title="Next frame">next</button></div>',
        "does not change the frame",
    ),
    "undescribed_animation.html": (
        '<div class="animation"><img id="_anim_img1" src="dot.png" alt="A frame.">'
        '<input class="anim-slider" type="range">'
        '<button title="Next frame" onclick="this.previousElementSibling'
        ".previousElementSibling.src = 'dot.png?2'\">next</button></div>",
        "every frame has the same alt text",
    ),
}


@pytest.fixture(scope="module")
def fake_site(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("fake_site")
    Image.new("RGB", (4, 4), (0, 0, 0)).save(folder / "dot.png")
    (folder / "good.html").write_text(GOOD_PAGE)
    for name, (snippet, _) in BROKEN_PAGES.items():
        (folder / name).write_text(GOOD_PAGE.replace("<p>Costs nothing.", snippet + "<p>"))
    with serve(folder) as url:
        yield url


def test_a_good_page_has_no_problem(fake_site: str, browser) -> None:
    with new_page(browser, DESKTOP) as page:
        assert check_page(page, fake_site + "good.html", "book/good", None) == []


@pytest.mark.parametrize("name", BROKEN_PAGES)
def test_a_broken_page_is_reported(name: str, fake_site: str, browser) -> None:
    expected = BROKEN_PAGES[name][1]
    with new_page(browser, DESKTOP) as page:
        problems = check_page(page, fake_site + name, f"book/{Path(name).stem}", None)
    assert any(expected in problem for problem in problems), problems


def test_a_transparent_figure_is_reported(tmp_path: Path, browser) -> None:
    Image.new("RGBA", (4, 4), (0, 0, 0, 0)).save(tmp_path / "clear.png")
    (tmp_path / "page.html").write_text(
        '<html><body><article><img src="clear.png" alt="A clear figure."></article></body></html>'
    )
    with serve(tmp_path) as url, new_page(browser, DESKTOP) as page:
        problems = check_page(page, url + "page.html", "book/page", None)
    assert any("transparent background" in problem for problem in problems), problems


def test_buttons_pointing_elsewhere_are_reported(site_url: str, browser) -> None:
    """Against another repository, the real pages' buttons are all wrong."""
    notebooks = [docname for docname in PAGES if is_notebook(docname)]
    docname = (notebooks or PAGES)[0]
    elsewhere = Repository("https://github.com/someone/else", "main", "https://mybinder.org")
    with new_page(browser, DESKTOP) as page:
        open_page(page, urljoin(site_url, f"{docname}.html"))
        problems = button_problems(page, docname, elsewhere)
    expected = ["repository button"] + (["Binder button"] if notebooks else [])
    expected += ["Colab button"] if is_chapter(docname) else []
    for reason in expected:
        assert any(reason in problem for problem in problems), (reason, problems)


# --------------------------------------------------------------------------
# What a reader does: the checks fail on small broken pages (issue 13)
# --------------------------------------------------------------------------

READER_PAGE = """<!DOCTYPE html><html lang="en"><head><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="dot.png"></head><body><main>
<h1>{title}</h1>
<p>A page a reader can use. <img src="dot.png" alt="A black dot."></p>
{snippet}
</main></body></html>"""

# A chapter menu like the theme's: a button and a dialog of links to chapters.
MENU = """<button class="primary-toggle" aria-label="Chapter menu">&#9776;</button>
<dialog id="menu"><a href="target.html">The next chapter</a></dialog>"""
MENU_SCRIPT = """<script>document.querySelector(".primary-toggle").addEventListener(
    "click", () => document.getElementById("menu").showModal());</script>"""

READER_PAGES = {
    # name: (snippet, what is wrong or None for a good page)
    "menu_works.html": (MENU + MENU_SCRIPT, None),
    "menu_dead.html": (MENU, "chapter menu does not open"),
    "accessible.html": ("<button>Next frame</button>", None),
    "axe_violation.html": ('<button><img src="dot.png"></button>', "axe critical"),
    "narrow.html": ('<p style="max-width: 100%">Short enough.</p>', None),
    "scrolls_and_says_so.html": (
        '<div tabindex="0" aria-label="A wide table, scrolls sideways" '
        'style="overflow-x: auto"><div style="width: 700px">wide</div></div>',
        None,
    ),
    "overflowing.html": ('<div style="width: 700px">too wide</div>', "on a 390px phone"),
    "scrolls_silently.html": (
        '<div style="overflow-x: auto"><div style="width: 700px">wide</div></div>',
        "on a 390px phone",
    ),
    "big_buttons.html": ('<button style="min-width: 44px; min-height: 44px">Go</button>', None),
    "small_button.html": ('<button style="width: 30px; height: 30px">Go</button>', "tap target"),
    "light.html": ("", None),
    "heavy.html": ('<img src="noise.png" alt="Noise, 1.2 MB of it.">', "over its weight budget"),
}


@pytest.fixture(scope="module")
def reader_site(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("reader_site")
    Image.new("RGB", (4, 4), (0, 0, 0)).save(folder / "dot.png")
    # Noise does not compress: 640 x 640 RGB pixels are 1.2 MB on the wire.
    noise = Image.frombytes("RGB", (640, 640), os.urandom(640 * 640 * 3))
    noise.save(folder / "noise.png")
    (folder / "target.html").write_text(READER_PAGE.format(title="Target", snippet=""))
    for name, (snippet, _) in READER_PAGES.items():
        (folder / name).write_text(READER_PAGE.format(title=Path(name).stem, snippet=snippet))
    with serve_compressed(folder) as url:
        yield url


def reader_problems(name: str, url: str, browser) -> list[str]:
    """The reader check that applies to the small page ``name``."""
    if name.startswith("menu"):
        with new_page(browser, PHONE) as page:
            page.goto(url + name)
            return chapter_menu_problems(page, url + "target.html")
    if name in ("light.html", "heavy.html"):
        return weight_problems(browser, url + name, budget_for(name, True), PHONE)[0]
    with new_page(browser, PHONE) as page:
        page.goto(url + name)
        if name in ("accessible.html", "axe_violation.html"):
            return axe_problems(page)
        if name in ("big_buttons.html", "small_button.html"):
            return tap_target_problems(page)
        return overflow_problems(page)


@pytest.mark.parametrize("name", READER_PAGES)
def test_reader_checks_fail_on_broken_pages_only(name: str, reader_site: str, browser) -> None:
    expected = READER_PAGES[name][1]
    problems = reader_problems(name, reader_site, browser)
    if expected is None:
        assert problems == [], problems
    else:
        assert any(expected in problem for problem in problems), problems


def test_dark_animation_controls_on_a_light_panel_are_reported(tmp_path: Path, browser) -> None:
    controls = (
        '<div class="animation"><div class="anim-buttons" style="background: #f0f0f0">'
        '<button title="Play" style="color: #ddd">&#9654;</button></div>'
        '<form class="anim-state"><input type="radio" name="s" checked></form></div>'
    )
    (tmp_path / "dark.html").write_text(READER_PAGE.format(title="Dark", snippet=controls))
    with serve(tmp_path) as url, new_page(browser, PHONE, "dark") as page:
        page.goto(url + "dark.html")
        problems = dark_animation_problems(page)
    for expected in ("light panel", "drawn for a light page", "contrast"):
        assert any(expected in problem for problem in problems), (expected, problems)


# --------------------------------------------------------------------------
# A phone reader on a slow line: the checks fail on small broken pages (issue 24)
# --------------------------------------------------------------------------

STATIC = ROOT / "book" / "_static"
NORM_MML = (
    '<mjx-container class="MathJax"><mjx-assistive-mml><math><mrow>'
    '<mo symmetric="true">&#x2016;</mo><mi>x</mi><mo symmetric="true">&#x2016;</mo>'
    "</mrow></math></mjx-assistive-mml></mjx-container>"
)
WIDE = '<span style="display: inline-block; width: 900px">x</span>'
ANIMATION_CONTROLS = (
    '<div class="animation" style="margin-top: 1000px"><div class="anim-buttons">'
    '<button title="Play" style="width: 44px; height: 44px">P</button></div>'
    '<form class="anim-state"><label><input type="radio" value="loop">Loop</label></form>'
    '</div><div style="height: 3000px"></div>'
)
PHONE_PAGES = {
    # name: (snippet, check, what is wrong or None for a good page)
    "short_formula.html": (
        '<p>The bias <mjx-container class="MathJax">b</mjx-container> moves it.</p>',
        formula_box_problems,
        None,
    ),
    "short_formula_boxed.html": (
        '<p>The bias <mjx-container class="MathJax math-too-wide" tabindex="0" role="region" '
        'aria-label="Equation, wider than the screen">b</mjx-container> moves it.</p>',
        formula_box_problems,
        "fits its paragraph is boxed",
    ),
    "regions_one_name.html": (
        '<div role="region" aria-label="Code, wider">a</div>'
        '<div role="region" aria-label="Code, wider">b</div>',
        formula_box_problems,
        "2 regions share the name",
    ),
    "proof_formula_fits.html": (
        '<div class="proof admonition" style="width: 320px"><mjx-container class="MathJax" '
        'display="true"><svg width="300" height="20"></svg></mjx-container></div>',
        proof_formula_problems,
        None,
    ),
    "proof_formula_too_wide.html": (
        '<div class="proof admonition" style="width: 320px; overflow-x: auto">'
        '<mjx-container class="MathJax" display="true"><svg width="400" height="20"></svg>'
        "</mjx-container></div>",
        proof_formula_problems,
        "a display formula of a proof is 400px wide in a 320px proof box",
    ),
    "norm_lvert.html": (
        '<mjx-container class="MathJax"><mjx-assistive-mml><math><mo>&#x2016;</mo>'
        "<mi>x</mi><mo>&#x2016;</mo></math></mjx-assistive-mml></mjx-container>",
        norm_problems,
        None,
    ),
    "norm_left_right.html": (NORM_MML, norm_problems, "\\left\\lVert"),
    "figure_sized.html": (
        '<article><img src="wide.png" width="900" height="300" alt="A wide figure."></article>',
        figure_size_problems,
        None,
    ),
    "figure_unsized.html": (
        '<article><img src="wide.png" alt="A wide figure."></article>',
        figure_size_problems,
        "without width and height",
    ),
    "figure_with_cue.html": (
        '<div class="bd-content"><figure><img src="wide.png" alt="A wide figure." '
        'style="max-width: 100%"><button type="button" class="course-enlarge">Tap to enlarge'
        "</button></figure></div>",
        enlarge_cue_problems,
        None,
    ),
    "figure_without_cue.html": (
        '<div class="bd-content"><figure><img src="wide.png" alt="A wide figure." '
        'style="max-width: 100%"></figure></div>',
        enlarge_cue_problems,
        "no visible 'tap to enlarge' cue",
    ),
    "animation_failed_says_so.html": (
        '<div class="lazy-animation" data-failed="true"><p class="lazy-animation-note">'
        "<strong>The animation could not be loaded here.</strong> <a href='a.html'>Open it."
        "</a></p></div>",
        failed_animation_problems,
        None,
    ),
    "animation_failed_silently.html": (
        '<div class="lazy-animation" data-failed="true"><p class="lazy-animation-note">'
        "The animation loads as you scroll to it.</p></div>",
        failed_animation_problems,
        "still says",
    ),
    "maths_rendered.html": (
        '<p>A norm <span class="math">'
        + NORM_MML.replace('class="MathJax"', 'jax="SVG"')
        + "</span> on the first screen.</p>",
        first_screen_tex_problems,
        None,
    ),
    "maths_raw.html": (
        '<p>The margin <span class="math notranslate nohighlight">\\(\\gamma\\)</span>.</p>',
        first_screen_tex_problems,
        "TeX on the first screen: \\(",
    ),
    "maths_macro.html": (
        "<p>The weights \\vw are rendered by nothing.</p>",
        first_screen_tex_problems,
        "TeX on the first screen: \\vw",
    ),
    "maths_by_mathjax.html": (
        '<script defer src="_static/mathjax/tex-chtml.js"></script><p>Text.</p>',
        first_screen_tex_problems,
        "the page loads MathJax",
    ),
    "maths_without_mathml.html": (
        '<p>A formula <mjx-container jax="SVG"><svg></svg></mjx-container> for the eye.</p>',
        first_screen_tex_problems,
        "without MathML for screen readers",
    ),
    "animation_2x.html": (
        '<div class="animation"><img id="_anim_img1" src="wide.png" width="450" height="150"'
        ' alt="A frame."></div>',
        animation_density_problems,
        None,
    ),
    "animation_1x.html": (
        '<div class="animation"><img id="_anim_img1" src="wide.png" width="900" height="300"'
        ' alt="A frame."></div>',
        animation_density_problems,
        "1.00 pixels per CSS pixel",
    ),
    "controls_free.html": (ANIMATION_CONTROLS, covered_control_problems, None),
    "controls_covered.html": (
        ANIMATION_CONTROLS.replace(
            '<div class="anim-buttons">',
            '<div class="anim-buttons">'
            '<div id="pst-back-to-top" style="position: fixed; top: 88vh; left: 0; width: 100%; '
            'height: 60px; background: gray; z-index: 5"></div>',
        ),
        covered_control_problems,
        "is covered by div#pst-back-to-top",
    ),
}


@pytest.fixture(scope="module")
def phone_site(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("phone_site")
    Image.new("RGB", (4, 4), (0, 0, 0)).save(folder / "dot.png")
    Image.new("RGB", (900, 300), (255, 255, 255)).save(folder / "wide.png")
    for name, (snippet, _, _) in PHONE_PAGES.items():
        (folder / name).write_text(READER_PAGE.format(title=Path(name).stem, snippet=snippet))
    with serve(folder) as url:
        yield url


@pytest.mark.parametrize("name", PHONE_PAGES)
def test_phone_checks_fail_on_broken_pages_only(name: str, phone_site: str, browser) -> None:
    _, check, expected = PHONE_PAGES[name]
    with new_page(browser, PHONE) as page:
        page.goto(phone_site + name, wait_until="load")
        problems = check(page)
    if expected is None:
        assert problems == [], problems
    else:
        assert any(expected in problem for problem in problems), problems


CRITICAL_PAGE = """<!DOCTYPE html><html lang="en"><head><title>critical path</title>
<link rel="icon" href="dot.png">
<link rel="stylesheet" href="first.css">
<script defer src="late.js"></script>
<script>addEventListener("DOMContentLoaded", () => document.head.insertAdjacentHTML(
  "beforeend", '<link rel="stylesheet" href="later.css" data-later="">'));</script>
{head}</head><body><article><p>Text.</p>
<img loading="lazy" src="dot.png" alt="A dot." width="4" height="4">{body}</article>
</body></html>"""
CRITICAL_PAGES = {
    # name: (in the head, in the body, what is wrong or None for a good page)
    "critical_good.html": ("", "", None),
    "critical_blocking_script.html": (
        '<script src="late.js"></script>',
        "",
        "a script in the head holds the first paint back: late.js",
    ),
    "critical_preload.html": (
        '<link rel="preload" as="script" href="late.js">',
        "",
        "a script preloaded at the stylesheet's priority: late.js",
    ),
    "critical_two_stylesheets.html": (
        '<link rel="stylesheet" href="second.css">',
        "",
        "2 render-blocking requests (at most 1): first.css, second.css",
    ),
    "critical_eager_figure.html": (
        "",
        '<img src="dot.png" alt="Another dot." width="4" height="4">',
        "a figure fetched before the page is laid out",
    ),
    "critical_late_rule_used.html": (
        "",
        '<div class="carousel">A class only the late stylesheet styles.</div>',
        "a rule loaded after the first paint matches div: .carousel",
    ),
}


@pytest.fixture(scope="module")
def critical_site(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("critical_site")
    Image.new("RGB", (4, 4), (0, 0, 0)).save(folder / "dot.png")
    (folder / "first.css").write_text("p { color: #222; }")
    (folder / "second.css").write_text("img { border: 0; }")
    (folder / "later.css").write_text(
        ".carousel { display: flex; } .toast::before { content: '!'; }"
    )
    (folder / "late.js").write_text("window.late = true;")
    for name, (head, body, _) in CRITICAL_PAGES.items():
        (folder / name).write_text(CRITICAL_PAGE.format(head=head, body=body))
    with serve(folder) as url:
        yield url


@pytest.mark.parametrize("name", CRITICAL_PAGES)
def test_critical_path_checks_fail_on_broken_pages_only(
    name: str, critical_site: str, browser
) -> None:
    expected = CRITICAL_PAGES[name][2]
    with new_page(browser, PHONE) as page:
        page.goto(critical_site + name, wait_until="load")
        problems = critical_path_problems(page)
    if expected is None:
        assert problems == [], problems
    else:
        assert any(expected in problem for problem in problems), problems


def test_course_js_boxes_only_wide_formulas_and_offers_the_book_pdf(
    tmp_path: Path, browser
) -> None:
    """course.js on a small page: a wide formula is boxed and named, a short one is
    not, a shrunk figure gets its cue, and the download menu offers the book's PDF."""
    (tmp_path / "course.js").write_text((STATIC / "course.js").read_text())
    (tmp_path / "course.css").write_text((STATIC / "course.css").read_text())
    Image.new("RGB", (900, 300), (255, 255, 255)).save(tmp_path / "wide.png")
    (tmp_path / BOOK_PDF).write_bytes(b"%PDF-1.4\n%%EOF\n")
    page_html = (
        '<!DOCTYPE html><html data-content_root="./"><head><title>t</title>'
        f'<script>window.COURSE_BOOK_PDF = "{BOOK_PDF}";</script>'
        '<link rel="stylesheet" href="course.css"><script src="course.js"></script>'
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>'
        '<button class="btn" onclick="window.print()"><span class="btn__text-container">'
        '.pdf</span></button><div class="bd-content">'
        '<p>Short: <mjx-container class="MathJax">b</mjx-container>, wide: '
        f'<mjx-container class="MathJax" id="wide">{WIDE}</mjx-container>.</p>'
        '<figure><img src="wide.png" alt="A wide figure." style="max-width: 100%"></figure>'
        "</div></body></html>"
    )
    (tmp_path / "page.html").write_text(page_html)
    with serve(tmp_path) as url, new_page(browser, PHONE) as page:
        page.goto(url + "page.html", wait_until="load")
        page.wait_for_selector(f"a[href$='{BOOK_PDF}']", timeout=3_000)
        boxed = page.eval_on_selector_all(
            "[role='region']", "boxes => boxes.map(b => [b.id, b.getAttribute('aria-label')])"
        )
        problems = formula_box_problems(page) + enlarge_cue_problems(page)
        page.locator("button.course-enlarge").click()
        page.locator("dialog.course-figure-zoom[open]").wait_for(timeout=2_000)
    assert boxed == [["wide", "Equation 1, wider than the screen: scroll sideways"]], boxed
    assert problems == [], problems


def test_a_chapter_read_from_disk_says_its_animation_did_not_load(site_url: str, browser) -> None:
    """Opened from file:// (fetch is blocked), an animation says it failed and links to
    itself; `make serve` is the way to read the site with its animations."""
    chapters = [docname for docname in PAGES if is_chapter(docname)]
    if not chapters:
        pytest.skip("no chapter yet")
    with new_page(browser, PHONE, "dark") as page:
        page.goto((HTML_DIR / f"{chapters[0]}.html").as_uri(), wait_until="load")
        holder = page.locator(".lazy-animation").first
        holder.scroll_into_view_if_needed()
        page.wait_for_function(
            "() => document.querySelector('.lazy-animation').dataset.failed", timeout=5_000
        )
        problems = failed_animation_problems(page)
        problems += [f"dark: {problem}" for problem in axe_problems(page)]
    assert problems == [], problems
