// Small additions to the book's pages (loaded on every page by _config.yml).
//
// matplotlib's to_jshtml() animations show their frames in an <img> without
// alt text; give each one a description, so that screen readers announce it
// and the site test's "every image has alt text" holds for animations too.
document.addEventListener("DOMContentLoaded", () => {
  for (const frame of document.querySelectorAll('.animation img[id^="_anim_img"]')) {
    if (!frame.getAttribute("alt")) {
      frame.setAttribute(
        "alt",
        "Animation frame: use the buttons below to play the animation or step through it.",
      );
    }
  }
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
