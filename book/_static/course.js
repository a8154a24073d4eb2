// Small additions to the book's pages (loaded on every page by _config.yml).
// Each part fixes something a reader on a phone, on a slow line or with a
// screen reader met (issue 13); tests/test_site.py checks each one.

// --------------------------------------------------------------------------
// Animations: loaded when the reader comes near them, then described.
// scripts/site/lazy_animations.py moved each one into _animations/ and left a
// placeholder with its address.
// --------------------------------------------------------------------------

function captionOf(element) {
  const caption = element.closest("figure")?.querySelector("figcaption .caption-text");
  const text = (caption?.textContent || "").replace(/\s+/g, " ").trim();
  return text || "Animation";
}

// The slider gets a label, and each frame its own alt text ("... Frame 3 of
// 12."), updated whenever the animation shows another frame.
function describeAnimation(animation) {
  const caption = captionOf(animation);
  const slider = animation.querySelector("input.anim-slider");
  const frame = animation.querySelector('img[id^="_anim_img"]');
  if (!slider || !frame) return;
  slider.setAttribute("aria-label", `Frame of the animation: ${caption}`);
  const describe = () => {
    const count = Number(slider.max) + 1;
    const index = Number(slider.value) + 1;
    frame.setAttribute("alt", `${caption} Frame ${index} of ${count}.`);
    slider.setAttribute("aria-valuetext", `Frame ${index} of ${count}`);
  };
  describe();
  new MutationObserver(describe).observe(frame, { attributes: true, attributeFilter: ["src"] });
  slider.addEventListener("input", describe);
}

function loadAnimation(holder) {
  fetch(holder.dataset.src)
    .then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.text();
    })
    .then((html) => {
      const parts = document.createElement("div");
      parts.innerHTML = html;
      holder.replaceChildren(...parts.childNodes);
      // Scripts inserted as HTML do not run: replace each by a fresh copy.
      for (const old of holder.querySelectorAll("script")) {
        const script = document.createElement("script");
        script.text = old.text;
        old.replaceWith(script);
      }
      holder.querySelectorAll(".animation").forEach(describeAnimation);
    })
    .catch(() => showFailedAnimation(holder));
}

// A page opened from disk (file://) may not fetch, and a line may drop: the
// note then says so instead of promising that the animation is coming, and
// its link still opens the animation on its own.
function showFailedAnimation(holder) {
  holder.dataset.failed = "true";
  const note = holder.querySelector(".lazy-animation-note");
  const link = note?.querySelector("a");
  if (!note) return;
  const text = document.createElement("strong");
  text.textContent = "The animation could not be loaded here. ";
  note.replaceChildren(text, ...(link ? [link] : []));
  note.setAttribute("role", "status");
}

function deferAnimations() {
  const holders = document.querySelectorAll(".lazy-animation[data-src]");
  if (!("IntersectionObserver" in window)) {
    holders.forEach(loadAnimation);
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        loadAnimation(entry.target);
      }
    },
    { rootMargin: "400px 0px" },
  );
  holders.forEach((holder) => observer.observe(holder));
}

// --------------------------------------------------------------------------
// Wide code, output, tables and equations scroll in their own box: say so.
// A box that scrolls is reachable with the keyboard (tabindex), named for
// screen readers, and shows a shadow at the edge that has more (course.css).
// --------------------------------------------------------------------------

const SCROLLERS = [
  ["div.highlight > pre", "Code"],
  [".cell_output pre", "Output"],
  ["div.math, mjx-container[display='true'], mjx-container.math-too-wide", "Equation"],
  [".table-wrapper, .pst-scrollable-table-container", "Table"],
];

// Inline math cannot wrap (MathJax 3 does not break lines), so a formula in the
// text that is wider than its paragraph becomes a small box of its own that
// scrolls; it is then labelled like the others below. The formula is measured
// against the block it sits in (a paragraph, a list item, a table cell), never
// against its own wrapper, which is as wide as the formula itself: a short
// formula gets no box, no tab stop and no region.
const TEXT_BLOCK = "p, li, dd, dt, td, th, figcaption, caption, blockquote, .admonition, section";

function boxWideInlineMath() {
  for (const math of document.querySelectorAll(".bd-content mjx-container:not([display='true'])")) {
    const block = math.closest(TEXT_BLOCK);
    if (!block) continue;
    // Measured unboxed: a boxed formula is as narrow as its paragraph.
    math.classList.remove("math-too-wide");
    if (math.getBoundingClientRect().width > block.clientWidth + 1) {
      math.classList.add("math-too-wide");
    } else if (math.dataset.scrollKind) {
      unlabel(math);
    }
  }
}

function unlabel(box) {
  box.classList.remove("scrolls-sideways");
  for (const name of ["tabindex", "role", "aria-label", "data-scroll-kind"]) {
    box.removeAttribute(name);
  }
}

function labelScrollers() {
  boxWideInlineMath();
  const count = {};
  for (const [selector, what] of SCROLLERS) {
    for (const box of document.querySelectorAll(selector)) {
      const scrolls = box.clientWidth > 0 && box.scrollWidth > box.clientWidth + 1;
      if (box.parentElement?.closest(".scrolls-sideways")) {
        if (box.dataset.scrollKind) unlabel(box); // its outer box scrolls instead
        continue;
      }
      // A box labelled once stays labelled (a wider window may make it fit,
      // and the theme may still be changing the layout when resize fires);
      // it is numbered again with the others, so that names stay unique.
      if (!scrolls && !box.dataset.scrollKind) continue;
      count[what] = (count[what] || 0) + 1;
      box.classList.add("scrolls-sideways");
      box.dataset.scrollKind = what;
      box.setAttribute("tabindex", "0");
      box.setAttribute("role", "region");
      // Regions need names of their own (axe: landmark-unique): numbered.
      box.setAttribute("aria-label", `${what} ${count[what]}, wider than the screen: scroll sideways`);
    }
  }
}

// --------------------------------------------------------------------------
// Figures on a phone: a multi-panel figure shrunk to the screen's width has
// unreadable ticks and legends. A tap opens it at a readable size in a box
// that scrolls (its alt text and caption come along); Escape or "Close" ends it.
// --------------------------------------------------------------------------

const PHONE_WIDTH = 576;

function enlargeFigure(image) {
  const dialog = document.createElement("dialog");
  dialog.className = "course-figure-zoom";
  dialog.setAttribute("aria-label", "The figure, enlarged");
  const close = document.createElement("button");
  close.type = "button";
  close.className = "btn btn-sm";
  close.textContent = "Close";
  close.addEventListener("click", () => dialog.close());
  const scroller = document.createElement("div");
  scroller.className = "course-figure-zoom-scroll";
  scroller.tabIndex = 0;
  scroller.setAttribute("role", "region");
  scroller.setAttribute("aria-label", "Enlarged figure: scroll sideways and down");
  const copy = image.cloneNode();
  copy.removeAttribute("width");
  copy.removeAttribute("height");
  copy.removeAttribute("style");
  scroller.append(copy);
  dialog.append(close, scroller);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

const FIGURE_IMAGES = ".bd-content figure img, .bd-content .cell_output img";

// Only figures drawn much smaller than their pixels gain from a tap.
function shrunk(image) {
  return (
    !image.closest(".animation, a") &&
    image.clientWidth > 0 &&
    image.naturalWidth >= 1.3 * image.clientWidth
  );
}

document.addEventListener("click", (event) => {
  if (window.innerWidth >= PHONE_WIDTH) return;
  const image = event.target.closest(FIGURE_IMAGES);
  if (image && shrunk(image)) enlargeFigure(image);
});

// A touch reader has no cursor to tell them that a figure opens larger: each
// shrunk figure gets a visible button under it that does it (also reachable
// with the keyboard). course.css shows the buttons on phones only.
function addEnlargeCues() {
  if (window.innerWidth >= PHONE_WIDTH) return;
  for (const image of document.querySelectorAll(FIGURE_IMAGES)) {
    if (!image.complete) {
      image.addEventListener("load", addEnlargeCues, { once: true });
      continue;
    }
    const next = image.nextElementSibling;
    if (!shrunk(image) || next?.classList.contains("course-enlarge")) continue;
    const cue = document.createElement("button");
    cue.type = "button";
    cue.className = "course-enlarge";
    cue.textContent = "Tap to enlarge the figure";
    cue.addEventListener("click", () => enlargeFigure(image));
    image.after(cue);
  }
}

// --------------------------------------------------------------------------
// Names that say what a control does.
// --------------------------------------------------------------------------

function nameControls() {
  // sphinx-togglebutton names every toggle "Toggle hidden content".
  for (const solution of document.querySelectorAll(".toggle")) {
    const title = solution.querySelector(".admonition-title");
    const button = solution.querySelector("button.toggle-button");
    if (!title || !button) continue;
    const text = title.textContent.replace(/\s+/g, " ").trim();
    button.setAttribute("aria-label", `Show or hide: ${text}`);
  }
  // myst-nb's hide-input boxes name their summary "Toggle hidden content" too,
  // while it shows "Show code cell source": let the visible text be the name.
  for (const summary of document.querySelectorAll("details.hide > summary[aria-label]")) {
    summary.removeAttribute("aria-label");
  }
  // The bibliography is a list (role="list") of entries whose role
  // ("doc-biblioentry", deprecated in ARIA 1.2) is not a list item.
  for (const list of document.querySelectorAll('.citation-list[role="list"]')) {
    for (const entry of list.children) entry.setAttribute("role", "listitem");
  }
  // The search button's name must contain the text it shows.
  for (const button of document.querySelectorAll(".search-button-field")) {
    const shown = button.textContent.replace(/\s+/g, " ").trim();
    if (shown) button.setAttribute("aria-label", shown);
  }
}

// --------------------------------------------------------------------------
// The header's download menu: its "PDF" entry prints the page. When the site
// carries the book's PDF (the deploy workflow and `make pdf` put it at the
// site's root; scripts/pdf/book_pdf.py writes its name into book-pdf.js), the entry
// downloads that instead.
// --------------------------------------------------------------------------

function offerBookPdf() {
  const pdf = window.COURSE_BOOK_PDF;
  const print = document.querySelector("button[onclick*='print']");
  const root = document.documentElement.dataset.content_root;
  if (!pdf || !print || root === undefined) return;
  const link = document.createElement("a");
  link.href = root + pdf;
  link.className = print.className;
  link.setAttribute("download", "");
  link.title = "The whole book as a PDF";
  link.innerHTML = print.innerHTML;
  const label = link.querySelector(".btn__text-container") || link;
  label.textContent = "Book (.pdf)";
  print.replaceWith(link);
}

// --------------------------------------------------------------------------
// The phone menus: a section picked in "on this page" closes the menu, so
// that the reader sees the section rather than the menu over it.
// --------------------------------------------------------------------------

document.addEventListener("click", (event) => {
  const link = event.target.closest("dialog[open] a[href^='#']");
  if (link) link.closest("dialog").close();
});

// A solution's title links to its exercise, and the whole title also opens
// the solution (sphinx-togglebutton). A click on the link itself made the
// toggle script fail ("button is not defined"): let the link just follow.
document.addEventListener(
  "click",
  (event) => {
    if (event.target.closest(".toggle > .admonition-title a")) event.stopPropagation();
  },
  true,
);

// A solution opened: its code may now be wider than the screen.
document.addEventListener("click", (event) => {
  if (event.target.closest(".toggle, .toggle-button")) setTimeout(labelScrollers, 50);
});

document.addEventListener("DOMContentLoaded", () => {
  deferAnimations();
  document.querySelectorAll(".animation").forEach(describeAnimation);
  labelScrollers();
  offerBookPdf();
  // After sphinx-togglebutton has added its buttons (also on DOMContentLoaded).
  setTimeout(nameControls, 0);
  const mathjax = window.MathJax?.startup?.promise;
  if (mathjax) mathjax.then(labelScrollers);
});
window.addEventListener("load", () => {
  nameControls();
  labelScrollers();
  addEnlargeCues();
  const mathjax = window.MathJax?.startup?.promise;
  if (mathjax) mathjax.then(labelScrollers);
});
// Again a moment after a resize: the theme moves its sidebars in and out.
let resized;
window.addEventListener("resize", () => {
  labelScrollers();
  addEnlargeCues();
  clearTimeout(resized);
  resized = setTimeout(labelScrollers, 300);
});
