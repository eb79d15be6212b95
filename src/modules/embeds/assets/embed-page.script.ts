/**
 * The browser script of the two agent pages (/agents/<name>?embed=true and
 * ?plugin=1), inlined in the page and allowed by its CSP hash. Plain ES2017,
 * no dependencies; it reads its settings from the page's
 * `<script type="application/json" id="agent-config">` block.
 *
 * - Credential: the verified `token` of the address, or a guest registered
 *   when the page mounts (POST /api/social/auth/guest-register, with a device
 *   id kept in localStorage so a reload is the same guest).
 * - Chat: POST /chat {prompt_id, prompt} as that user (same origin).
 * - Plugin mode: audio only. Speech to text with the Web Speech API
 *   (SpeechRecognition captures the microphone), a text box where the
 *   browser has none; replies are spoken by the node's text-to-speech tool
 *   (POST /api/tools/tts/speak, a WAV played from a blob: URL) when it runs,
 *   by speechSynthesis otherwise.
 * - Tells a framing page what happens: window.parent.postMessage({source:
 *   'agent-embed', event: 'ready' | 'message', data}) (the widget-object
 *   script relays these as its events).
 * - A reply's `video_url` (http or https only) is shown as a player with a
 *   download link.
 */
export const EMBED_PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('agent-config').textContent);
  var log = document.getElementById('log');
  var statusLine = document.getElementById('status');
  var form = document.getElementById('composer');
  var input = document.getElementById('prompt');
  var token = config.token || null;

  function tell(event, data) {
    if (window.parent !== window) window.parent.postMessage({ source: 'agent-embed', event: event, data: data }, '*');
  }
  function setStatus(text) { statusLine.textContent = text; }
  function store(kind) { try { return window[kind]; } catch (e) { return null; } }
  function remember(key, value) { var s = store('localStorage'); try { if (s) s.setItem(key, value); } catch (e) { /* storage refused */ } }
  function recall(key) { var s = store('localStorage'); try { return s ? s.getItem(key) : null; } catch (e) { return null; } }

  function safeUrl(value) {
    if (typeof value !== 'string') return null;
    try { var url = new URL(value, location.href); return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null; } catch (e) { return null; }
  }

  function render(role, reply) {
    var item = document.createElement('div');
    item.className = 'msg ' + role;
    var text = document.createElement('p');
    text.textContent = reply.text;
    item.appendChild(text);
    var video = safeUrl(reply.video_url);
    if (video) {
      var player = document.createElement('video');
      player.controls = true;
      player.src = video;
      player.className = 'video';
      item.appendChild(player);
      var download = document.createElement('a');
      download.href = video;
      download.download = '';
      download.className = 'download';
      download.textContent = 'Download video';
      item.appendChild(download);
    }
    log.appendChild(item);
    log.scrollTop = log.scrollHeight;
    return item;
  }

  function randomId() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }

  async function registerGuest() {
    var deviceKey = 'agent-embed-device';
    var deviceId = recall(deviceKey);
    if (!deviceId) { deviceId = 'embed-' + randomId(); remember(deviceKey, deviceId); }
    var res = await fetch('/api/social/auth/guest-register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ guest_name: 'Visitor', device_id: deviceId })
    });
    var body = await res.json();
    if (!res.ok) throw new Error(body.error || ('guest registration failed (' + res.status + ')'));
    return body.data.token;
  }

  var ready = (async function () {
    if (token) return token;
    setStatus('Connecting…');
    token = await registerGuest();
    return token;
  })();
  ready.then(function () {
    document.body.setAttribute('data-ready', 'true');
    setStatus(config.mode === 'plugin' ? 'Ready: press the microphone and speak' : (config.email ? 'Chatting as ' + config.email : 'Ready'));
    tell('ready', { agent: config.agentName });
  }, function (error) {
    document.body.setAttribute('data-ready', 'error');
    setStatus('Could not connect: ' + error.message);
  });

  async function ask(prompt) {
    render('user', { text: prompt });
    await ready;
    setStatus('Thinking…');
    var res = await fetch('/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
      body: JSON.stringify({ prompt_id: config.promptId, prompt: prompt })
    });
    var body = await res.json().catch(function () { return {}; });
    if (!res.ok) {
      render('error', { text: body.error || ('The agent could not answer (' + res.status + ')') });
      setStatus('Ready');
      return null;
    }
    var reply = { text: String(body.response || '') };
    if (safeUrl(body.video_url)) reply.video_url = body.video_url;
    render('agent', reply);
    tell('message', reply);
    setStatus('Ready');
    return reply;
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var prompt = input.value.trim();
    if (!prompt) return;
    input.value = '';
    ask(prompt).then(function (reply) { if (reply && config.mode === 'plugin') speak(reply.text); });
  });

  // the node's own text-to-speech tool (POST /api/tools/tts/speak, a WAV) when it runs; the browser's voice otherwise
  var playing = null;
  async function speak(text) {
    if (!text) return;
    try {
      var res = await fetch('/api/tools/tts/speak', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
        body: JSON.stringify({ text: text.slice(0, 5000) })
      });
      if (res.ok) {
        if (playing) playing.pause();
        playing = new Audio(URL.createObjectURL(await res.blob()));
        document.body.setAttribute('data-speech', 'node');
        await playing.play();
        return;
      }
    } catch (e) { /* fall back to the browser's voice */ }
    if (!('speechSynthesis' in window)) return;
    document.body.setAttribute('data-speech', 'browser');
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
  }

  if (config.mode === 'plugin') {
    var Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
    var mic = document.getElementById('mic');
    if (!Recognition) {
      mic.hidden = true;
      form.hidden = false;
      document.body.setAttribute('data-voice', 'unavailable');
    } else {
      document.body.setAttribute('data-voice', 'available');
      mic.addEventListener('click', function () {
        var recognition = new Recognition();
        recognition.lang = document.documentElement.lang || 'en';
        recognition.interimResults = false;
        mic.setAttribute('aria-pressed', 'true');
        setStatus('Listening…');
        recognition.onresult = function (event) {
          var said = event.results[0][0].transcript;
          ask(said).then(function (reply) { if (reply) speak(reply.text); });
        };
        recognition.onerror = function (event) {
          setStatus('Voice input failed (' + event.error + '): type instead');
          form.hidden = false;
        };
        recognition.onend = function () { mic.setAttribute('aria-pressed', 'false'); };
        recognition.start();
      });
    }
  }

  window.agentEmbed = { ask: ask, render: render, ready: ready };
})();
`;
