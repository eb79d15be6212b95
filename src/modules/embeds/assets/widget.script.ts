/**
 * The chat widget script, served at /widget.js (SPEC §2.8, §6). It runs on
 * other people's sites, so it: builds its DOM with element.style (a host
 * page's CSP may forbid <style> elements and inline style attributes, never
 * the CSSOM), uses no globals but `window.AgentWidget`, and calls this node
 * (the script's own origin unless `baseUrl`) with the site's API key in
 * `X-API-Key`, never cookies. Plain ES2017, no dependencies.
 *
 *   var widget = AgentWidget.init({ apiKey, agentName, position, greeting,
 *     placeholder, multimodal, theme: { primary, background, text, borderRadius } });
 *   widget.on('open' | 'close' | 'message', handler); widget.open(); widget.close();
 *   widget.send(text); widget.destroy();
 *
 * Each visitor chats in their own conversation: prompt_id is the agent
 * name's slug (as on the agent pages) plus a random visitor id kept in the
 * site's localStorage (`promptId` overrides it).
 */
export const WIDGET_SCRIPT = String.raw`(function () {
  'use strict';
  if (window.AgentWidget) return;
  var script = document.currentScript;
  var scriptOrigin = script && script.src ? new URL(script.src, location.href).origin : location.origin;
  var POSITIONS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'];
  var DEFAULTS = {
    agentName: 'assistant',
    position: 'bottom-right',
    greeting: 'Hi! How can I help you today?',
    placeholder: 'Type your message…',
    multimodal: false,
    theme: { primary: '#4f46e5', background: '#ffffff', text: '#1f2430', borderRadius: '12px' }
  };
  var MAX_IMAGE_BYTES = 700 * 1024;

  function slug(name) {
    var s = String(name).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
      .replace(/[^a-z0-9]+/g, '-').replace(/^-+/, '').slice(0, 64).replace(/-+$/, '');
    return s || 'assistant';
  }
  function visitorId() {
    var key = 'agent-widget-visitor';
    try {
      var id = localStorage.getItem(key);
      if (id) return id;
      id = randomHex();
      localStorage.setItem(key, id);
      return id;
    } catch (e) { return randomHex(); }
  }
  function randomHex() {
    var bytes = new Uint8Array(6);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function safeUrl(value) {
    if (typeof value !== 'string') return null;
    try { var url = new URL(value); return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null; } catch (e) { return null; }
  }
  /** the options given, without the ones left undefined (so defaults stay) */
  function defined(object) {
    var out = {};
    Object.keys(object || {}).forEach(function (k) { if (object[k] !== undefined && object[k] !== null) out[k] = object[k]; });
    return out;
  }
  function el(tag, style, attrs) {
    var node = document.createElement(tag);
    Object.keys(style || {}).forEach(function (k) { node.style[k] = style[k]; });
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  /** A message bubble: its text, and for a video reply a player with a download link. */
  function renderMessage(list, role, message, theme) {
    var mine = role === 'user';
    var bubble = el('div', {
      margin: '6px 0', padding: '8px 10px', borderRadius: '10px', maxWidth: '85%', whiteSpace: 'pre-wrap', wordWrap: 'break-word',
      marginLeft: mine ? 'auto' : '0', background: mine ? theme.primary : (role === 'error' ? '#fde8e8' : 'rgba(127,127,127,0.12)'),
      color: mine ? '#fff' : theme.text
    }, { 'data-role': role });
    bubble.appendChild(document.createTextNode(message.text));
    var video = safeUrl(message.video_url);
    if (video) {
      var player = el('video', { display: 'block', maxWidth: '100%', marginTop: '6px', borderRadius: '8px' }, { controls: '', src: video, 'data-video': '' });
      bubble.appendChild(player);
      var download = el('a', { display: 'inline-block', marginTop: '4px', color: theme.primary }, { href: video, download: '', 'data-download': '' });
      download.textContent = 'Download video';
      bubble.appendChild(download);
    }
    list.appendChild(bubble);
    list.scrollTop = list.scrollHeight;
    return bubble;
  }

  function Widget(options) {
    if (!options || typeof options.apiKey !== 'string' || !options.apiKey) throw new Error('AgentWidget: apiKey is required');
    var theme = Object.assign({}, DEFAULTS.theme, defined(options.theme));
    var o = Object.assign({}, DEFAULTS, defined(options), { theme: theme });
    if (POSITIONS.indexOf(o.position) === -1) o.position = DEFAULTS.position;
    var self = this;
    var base = (o.baseUrl || scriptOrigin).replace(/\/$/, '');
    var promptId = o.promptId || (slug(o.agentName) + '-' + visitorId());
    var handlers = { open: [], close: [], message: [] };
    var vertical = o.position.indexOf('top') === 0 ? 'top' : 'bottom';
    var horizontal = o.position.indexOf('left') !== -1 ? 'left' : 'right';

    var root = el('div', { position: 'fixed', zIndex: '2147483000', fontFamily: 'system-ui, sans-serif', fontSize: '15px' }, { 'data-agent-widget': '', 'data-position': o.position });
    root.style[vertical] = '20px';
    root.style[horizontal] = '20px';
    var launcher = el('button', { width: '56px', height: '56px', borderRadius: '50%', border: '0', background: theme.primary, color: '#fff', fontSize: '15px', fontWeight: '600', cursor: 'pointer', boxShadow: '0 4px 14px rgba(0,0,0,.25)' }, { type: 'button', 'aria-label': 'Open chat', 'data-launcher': '' });
    launcher.textContent = 'Chat';
    var panel = el('div', {
      display: 'none', flexDirection: 'column', width: '340px', maxWidth: 'calc(100vw - 40px)', height: '460px', maxHeight: 'calc(100vh - 100px)',
      background: theme.background, color: theme.text, borderRadius: theme.borderRadius, boxShadow: '0 8px 30px rgba(0,0,0,.25)', overflow: 'hidden'
    }, { role: 'dialog', 'aria-label': o.agentName, 'data-panel': '' });
    panel.style[vertical === 'top' ? 'marginTop' : 'marginBottom'] = '10px';
    var header = el('div', { display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '10px 14px', background: theme.primary, color: '#fff', fontWeight: '600' });
    header.appendChild(document.createTextNode(o.agentName));
    var closeButton = el('button', { background: 'transparent', border: '0', color: '#fff', fontSize: '20px', cursor: 'pointer' }, { type: 'button', 'aria-label': 'Close chat', 'data-close': '' });
    closeButton.textContent = '\u00D7';
    header.appendChild(closeButton);
    var list = el('div', { flex: '1', overflowY: 'auto', padding: '10px 14px' }, { 'aria-live': 'polite', 'data-log': '' });
    var form = el('form', { display: 'flex', gap: '8px', padding: '10px', borderTop: '1px solid rgba(127,127,127,.25)' });
    var input = el('input', { flex: '1', minWidth: '0', padding: '8px 10px', border: '1px solid rgba(127,127,127,.4)', borderRadius: '8px', font: 'inherit', background: theme.background, color: theme.text }, { placeholder: o.placeholder, 'aria-label': 'Message', maxlength: '4000', 'data-input': '' });
    var sendButton = el('button', { padding: '8px 12px', border: '0', borderRadius: '8px', background: theme.primary, color: '#fff', font: 'inherit', cursor: 'pointer' }, { type: 'submit', 'data-send': '' });
    sendButton.textContent = 'Send';
    form.appendChild(input);
    if (o.multimodal) {
      var file = el('input', { display: 'none' }, { type: 'file', accept: 'image/*', capture: 'environment', 'data-file': '' });
      var attach = el('button', { padding: '8px', border: '0', borderRadius: '8px', background: 'transparent', color: theme.text, cursor: 'pointer' }, { type: 'button', 'aria-label': 'Attach an image', 'data-attach': '' });
      attach.textContent = 'Image';
      attach.addEventListener('click', function () { file.click(); });
      file.addEventListener('change', function () { if (file.files[0]) self.sendImage(file.files[0], input.value.trim()); file.value = ''; input.value = ''; });
      form.appendChild(file);
      form.appendChild(attach);
    }
    form.appendChild(sendButton);
    panel.appendChild(header);
    panel.appendChild(list);
    panel.appendChild(form);
    if (vertical === 'top') { root.appendChild(launcher); root.appendChild(panel); } else { root.appendChild(panel); root.appendChild(launcher); }
    root.style.display = 'flex';
    root.style.flexDirection = 'column';
    root.style.alignItems = horizontal === 'left' ? 'flex-start' : 'flex-end';
    (document.body || document.documentElement).appendChild(root);
    if (o.greeting) renderMessage(list, 'agent', { text: o.greeting }, theme);

    var isOpen = false;
    function emit(name, data) { handlers[name].slice().forEach(function (fn) { try { fn(data); } catch (e) { setTimeout(function () { throw e; }); } }); }

    this.element = root;
    this.on = function (name, fn) { if (handlers[name] && typeof fn === 'function') handlers[name].push(fn); return self; };
    this.off = function (name, fn) { if (handlers[name]) handlers[name] = handlers[name].filter(function (h) { return h !== fn; }); return self; };
    this.open = function () { if (isOpen) return; isOpen = true; panel.style.display = 'flex'; launcher.setAttribute('aria-expanded', 'true'); input.focus(); emit('open'); };
    this.close = function () { if (!isOpen) return; isOpen = false; panel.style.display = 'none'; launcher.setAttribute('aria-expanded', 'false'); emit('close'); };
    this.isOpen = function () { return isOpen; };
    this.destroy = function () { root.remove(); };

    function call(path, body) {
      return fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': o.apiKey },
        body: JSON.stringify(Object.assign({ prompt_id: promptId }, body)),
        credentials: 'omit'
      }).then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (reply) {
          if (!res.ok) throw new Error(reply.error || ('the agent could not answer (' + res.status + ')'));
          var message = { text: String(reply.response || '') };
          if (safeUrl(reply.video_url)) message.video_url = reply.video_url;
          return message;
        });
      });
    }
    function deliver(promise) {
      sendButton.disabled = true;
      return promise.then(function (message) {
        renderMessage(list, 'agent', message, theme);
        emit('message', message);
        return message;
      }, function (error) {
        renderMessage(list, 'error', { text: error.message }, theme);
        return null;
      }).then(function (result) { sendButton.disabled = false; return result; });
    }
    this.send = function (text) {
      text = String(text || '').trim();
      if (!text) return Promise.resolve(null);
      renderMessage(list, 'user', { text: text }, theme);
      return deliver(call('/chat', { prompt: text }));
    };
    this.sendImage = function (blob, text) {
      if (blob.size > MAX_IMAGE_BYTES) { renderMessage(list, 'error', { text: 'The image is too large (at most 700 KB).' }, theme); return Promise.resolve(null); }
      var prompt = text || 'What is in this image?';
      renderMessage(list, 'user', { text: prompt + ' [image]' }, theme);
      return deliver(new Promise(function (resolve, reject) {
        var reader = new FileReader();
        reader.onload = function () { resolve(reader.result); };
        reader.onerror = function () { reject(new Error('could not read the image')); };
        reader.readAsDataURL(blob);
      }).then(function (dataUrl) { return call('/visual_agent', { prompt: prompt, image_url: dataUrl }); }));
    };

    launcher.addEventListener('click', function () { if (isOpen) self.close(); else self.open(); });
    closeButton.addEventListener('click', function () { self.close(); });
    form.addEventListener('submit', function (event) { event.preventDefault(); var text = input.value; input.value = ''; self.send(text); });
  }

  window.AgentWidget = {
    init: function (options) { return new Widget(options); },
    renderMessage: function (list, role, message, theme) { return renderMessage(list, role, message, Object.assign({}, DEFAULTS.theme, defined(theme))); }
  };

  // <script src=".../widget.js" data-api-key="ak_..." data-agent-name="..." data-position="..." ...>: starts itself
  if (script && script.dataset && script.dataset.apiKey) {
    var d = script.dataset;
    var start = function () {
      window.AgentWidget.instance = window.AgentWidget.init({
        apiKey: d.apiKey, agentName: d.agentName || undefined, position: d.position || undefined, greeting: d.greeting,
        placeholder: d.placeholder || undefined, multimodal: d.multimodal === 'true',
        theme: { primary: d.themePrimary, background: d.themeBackground, text: d.themeText, borderRadius: d.themeBorderRadius }
      });
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
  }
})();
`;
