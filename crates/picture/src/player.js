// The replay player: draws the frames embedded in the page (made by the
// puzzle's simulator); it computes nothing about the run itself.
// `#tick=N` in the address opens the page at step N.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  var live = document.getElementById("live");
  var C = Number(live.getAttribute("data-cell")) || 40;
  var frames = data.frames;
  var last = frames.length - 1;
  var i = 0;
  var timer = null;
  var $ = function (id) { return document.getElementById(id); };

  function el(name, attrs, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function token(t) {
    var g = el("g", { transform: "translate(" + t.at[0] * C + " " + t.at[1] * C + ")" });
    var stroke = t.ring || "#1A1A1A";
    var width = t.ring ? 3.5 : 1.5;
    if (t.square) {
      g.appendChild(el("rect", { x: 8, y: 8, width: 24, height: 24, rx: 6, fill: t.fill, stroke: stroke, "stroke-width": width }));
    } else {
      g.appendChild(el("circle", { cx: 20, cy: 20, r: 10.5, fill: t.fill, stroke: stroke, "stroke-width": width }));
    }
    g.appendChild(el("text", { x: 20, y: 24.3, "font-size": 12, "font-weight": "bold", "text-anchor": "middle", fill: "#1A1A1A" }, t.mark));
    return g;
  }

  function mark(m) {
    var w = 7 * m.text.length + 6;
    var x = m.corner === "ne" || m.corner === "se" ? 40 - w - 1 : 1;
    var y = m.corner === "ne" || m.corner === "nw" ? 1 : 40 - 14 - 1;
    var g = el("g", { transform: "translate(" + (m.at[0] * C + x) + " " + (m.at[1] * C + y) + ")" });
    g.appendChild(el("rect", { width: w, height: 14, rx: 3, fill: m.fill, stroke: "#1A1A1A", "stroke-width": 0.8 }));
    g.appendChild(el("text", { x: w / 2, y: 11, "font-size": 11, "font-weight": "bold", "text-anchor": "middle", fill: "#1A1A1A" }, m.text));
    return g;
  }

  function draw() {
    var f = frames[i];
    while (live.firstChild) { live.removeChild(live.firstChild); }
    f.tokens.forEach(function (t) { live.appendChild(token(t)); });
    f.marks.forEach(function (m) { live.appendChild(mark(m)); });
    if (f.alert) {
      live.appendChild(el("rect", { x: f.alert[0] * C + 2, y: f.alert[1] * C + 2, width: C - 4, height: C - 4, rx: 4, fill: "none", stroke: "#D55E00", "stroke-width": 4, "stroke-dasharray": "6 3" }));
    }
    $("tick").textContent = String(f.step);
    $("delivered").textContent = String(f.delivered);
    $("slider").value = String(i);
    var list = $("lines");
    while (list.firstChild) { list.removeChild(list.firstChild); }
    f.lines.forEach(function (l) {
      var li = document.createElement("li");
      li.textContent = l;
      list.appendChild(li);
    });
    $("end").hidden = i !== last;
    document.body.setAttribute("data-step", String(f.step));
    window.replay = { step: f.step, frame: i, frames: frames.length, delivered: f.delivered, solved: data.solved, playing: timer !== null };
  }

  function go(k) {
    i = Math.max(0, Math.min(last, k));
    draw();
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $("play").textContent = "\u25B6 play";
  }

  function play() {
    if (timer !== null) { stop(); return; }
    if (i === last) { go(0); }
    $("play").textContent = "\u275A\u275A pause";
    timer = setInterval(function () {
      if (i >= last) { stop(); draw(); return; }
      go(i + 1);
    }, 1000 / Number($("speed").value));
  }

  function fromHash() {
    var m = /tick=(\d+)/.exec(location.hash);
    if (!m) { return; }
    var want = Number(m[1]);
    var k = 0;
    frames.forEach(function (f, j) { if (f.step <= want) { k = j; } });
    stop();
    go(k);
  }

  $("slider").max = String(last);
  $("last").textContent = String(frames[last].step);
  $("play").addEventListener("click", play);
  $("back").addEventListener("click", function () { stop(); go(i - 1); });
  $("fwd").addEventListener("click", function () { stop(); go(i + 1); });
  $("first").addEventListener("click", function () { stop(); go(0); });
  $("final").addEventListener("click", function () { stop(); go(last); });
  $("slider").addEventListener("input", function () { stop(); go(Number($("slider").value)); });
  $("speed").addEventListener("change", function () { if (timer !== null) { stop(); play(); } });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "SELECT") { return; }
    if (e.key === " ") { e.preventDefault(); play(); }
    else if (e.key === "ArrowRight") { stop(); go(i + 1); }
    else if (e.key === "ArrowLeft") { stop(); go(i - 1); }
    else if (e.key === "Home") { stop(); go(0); }
    else if (e.key === "End") { stop(); go(last); }
  });
  window.addEventListener("hashchange", fromHash);
  draw();
  fromHash();
})();
