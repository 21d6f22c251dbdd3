// The lobby: the open-tables list refreshes itself when a table opens, fills or starts.
(function () {
  "use strict";
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let timer = null;
  function connect() {
    const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
    socket.onmessage = () => {
      clearTimeout(timer);
      timer = setTimeout(refresh, 300);
    };
    socket.onclose = () => setTimeout(connect, 3000);
  }
  async function refresh() {
    const response = await fetch(location.href, {headers: {"X-Requested-With": "fetch"}});
    const html = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = html.getElementById("open-tables");
    if (fresh) document.getElementById("open-tables").replaceWith(fresh);
  }
  connect();
})();
