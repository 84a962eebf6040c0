(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("plies").textContent);
  var layer = document.getElementById("pieces");
  var caption = document.getElementById("ply-caption");
  var links = document.querySelectorAll("ol.moves a[data-ply]");
  var buttons = {};
  ["first", "back", "forward", "last"].forEach(function (name) {
    buttons[name] = document.getElementById("step-" + name);
  });
  var last = data.length - 1;
  var shown = last;
  function show(n) {
    n = Math.max(0, Math.min(last, n));
    shown = n;
    layer.innerHTML = data[n].pieces;
    caption.textContent = data[n].caption;
    document.documentElement.setAttribute("data-ply", String(n));
    for (var i = 0; i < links.length; i++) {
      var on = Number(links[i].getAttribute("data-ply")) === n;
      links[i].classList.toggle("current", on);
      if (on) { links[i].setAttribute("aria-current", "step"); } else { links[i].removeAttribute("aria-current"); }
    }
    buttons.first.disabled = buttons.back.disabled = n === 0;
    buttons.forward.disabled = buttons.last.disabled = n === last;
  }
  function fromHash() {
    var m = /^#ply=(\d+)$/.exec(window.location.hash);
    return m ? parseInt(m[1], 10) : last;
  }
  function go(n) {
    n = Math.max(0, Math.min(last, n));
    if (fromHash() === n && window.location.hash) { show(n); return; }
    window.location.hash = "ply=" + n;
  }
  buttons.first.addEventListener("click", function () { go(0); });
  buttons.back.addEventListener("click", function () { go(shown - 1); });
  buttons.forward.addEventListener("click", function () { go(shown + 1); });
  buttons.last.addEventListener("click", function () { go(last); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowLeft") { go(shown - 1); }
    if (e.key === "ArrowRight") { go(shown + 1); }
  });
  window.addEventListener("hashchange", function () { show(fromHash()); });
  document.documentElement.classList.add("js");
  show(fromHash());
})();
