/**
 * The widget-object script, served at /embed/widget-object.js (SPEC §2.8,
 * §4.8, §6): for a site whose visitors are signed in to this node. It frames
 * the agent's chat page (/agents/<agentName>?embed=true) as the user of
 * `authToken` (a JWT; `userId` must be that user) and relays the page's
 * events. Plain ES2017, no dependencies, no globals but `window.AgentWidgetObject`.
 *
 *   var chat = new AgentWidgetObject({ agentName, authToken, userId, emailAddress, container });
 *   chat.on('open' | 'close' | 'message' | 'ready', handler); chat.open(); chat.close(); chat.destroy();
 *
 * `emailAddress` is shown on the page as who is chatting; it is never a
 * credential. Messages from the frame are accepted only from this node's
 * origin and from that very frame.
 */
export const WIDGET_OBJECT_SCRIPT = String.raw`(function () {
  'use strict';
  if (window.AgentWidgetObject) return;
  var script = document.currentScript;
  var scriptOrigin = script && script.src ? new URL(script.src, location.href).origin : location.origin;

  function AgentWidgetObject(options) {
    if (!options || typeof options.agentName !== 'string' || !options.agentName) throw new Error('AgentWidgetObject: agentName is required');
    var self = this;
    var base = (options.baseUrl || scriptOrigin).replace(/\/$/, '');
    var baseOrigin = new URL(base).origin;
    var handlers = { open: [], close: [], message: [], ready: [] };
    var query = new URLSearchParams({ embed: 'true' });
    if (options.authToken) query.set('token', options.authToken);
    if (options.userId) query.set('user_id', options.userId);
    if (options.emailAddress) query.set('email', options.emailAddress);
    var frame = document.createElement('iframe');
    frame.src = base + '/agents/' + encodeURIComponent(options.agentName) + '?' + query.toString();
    frame.title = options.agentName;
    frame.setAttribute('allow', 'microphone; camera; autoplay');
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.style.border = '0';
    frame.style.width = options.width || '100%';
    frame.style.height = options.height || '520px';
    frame.style.display = 'none';
    var container = typeof options.container === 'string' ? document.querySelector(options.container) : options.container;
    (container || document.body).appendChild(frame);
    var isOpen = false;

    function emit(name, data) { handlers[name].slice().forEach(function (fn) { try { fn(data); } catch (e) { setTimeout(function () { throw e; }); } }); }
    function onMessage(event) {
      if (event.origin !== baseOrigin || event.source !== frame.contentWindow) return;
      var message = event.data;
      if (!message || message.source !== 'agent-embed') return;
      if (message.event === 'message' && message.data && typeof message.data.text === 'string') {
        var data = { text: message.data.text };
        if (typeof message.data.video_url === 'string') data.video_url = message.data.video_url;
        emit('message', data);
      } else if (message.event === 'ready') emit('ready', message.data);
    }
    window.addEventListener('message', onMessage);

    this.element = frame;
    this.on = function (name, fn) { if (handlers[name] && typeof fn === 'function') handlers[name].push(fn); return self; };
    this.off = function (name, fn) { if (handlers[name]) handlers[name] = handlers[name].filter(function (h) { return h !== fn; }); return self; };
    this.open = function () { if (isOpen) return self; isOpen = true; frame.style.display = 'block'; emit('open'); return self; };
    this.close = function () { if (!isOpen) return self; isOpen = false; frame.style.display = 'none'; emit('close'); return self; };
    this.isOpen = function () { return isOpen; };
    this.destroy = function () { window.removeEventListener('message', onMessage); frame.remove(); };
    if (options.open !== false) setTimeout(function () { self.open(); });
  }

  window.AgentWidgetObject = AgentWidgetObject;
})();
`;
