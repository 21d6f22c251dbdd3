// What every page needs from script, kept out of the HTML so that the Content-Security-Policy
// can refuse every inline script and event-handler attribute (ttr_site/csp.py).
(function () {
  "use strict";
  // Times are shown in the viewer's zone: the server reads this cookie (TimezoneMiddleware).
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  document.cookie = "tz=" + encodeURIComponent(zone) + ";path=/;max-age=31536000;samesite=lax";

  function ready() {
    // The language switcher submits on change (a button is shown without script).
    const language = document.getElementById("lang-select");
    if (language) language.addEventListener("change", () => language.form.submit());
    // <form data-confirm="question">: ask before a destructive post.
    document.addEventListener("submit", (event) => {
      const question = event.target.dataset && event.target.dataset.confirm;
      if (question && !window.confirm(question)) event.preventDefault();
    });
    // <input data-select-on-click>: one click selects the whole link, ready to copy.
    document.addEventListener("click", (event) => {
      if (event.target.matches && event.target.matches("input[data-select-on-click]")) {
        event.target.select();
      }
    });
    // data-seat-color: a seat's colour, set through the CSSOM (a style attribute is inline
    // style, which the policy refuses).
    for (const el of document.querySelectorAll("[data-seat-color]")) {
      el.style.setProperty("--seat-color", el.dataset.seatColor);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
