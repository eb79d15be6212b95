/**
 * The text-to-speech tool's server (issue 18), written into the node's tools
 * folder by setup and run by the supervisor as
 * `node <tools>/tts-server.cjs --port <port> --espeak <path to espeak-ng>`.
 * A small HTTP server on loopback, plain CommonJS with no dependencies:
 *
 *   GET  /health  200 {ok, program, voices_dir} while espeak-ng is there and executable
 *   POST /speak   {text, voice?, speed?} → 200 audio/wav
 *
 * espeak-ng runs with an argv (never a shell), the text on its stdin, the
 * WAV read from its stdout (its header's sizes set once the length is
 * known). Each request is bounded in size and time.
 */
export const TTS_SERVER_SCRIPT = String.raw`'use strict';
const http = require('node:http');
const fs = require('node:fs');
const { spawn } = require('node:child_process');

function arg(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}
const port = Number(arg('--port'));
const espeak = arg('--espeak');
if (!Number.isInteger(port) || !espeak) {
  process.stderr.write('usage: tts-server.cjs --port <port> --espeak <path>\n');
  process.exit(2);
}
const MAX_BODY = 64 * 1024;
const MAX_TEXT = 5000;
const VOICE = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/;

function reply(res, status, body, type) {
  res.writeHead(status, { 'content-type': type || 'application/json' });
  res.end(type ? body : JSON.stringify(body));
}

// espeak-ng streams its WAV to stdout before it knows the length, so the RIFF
// and data chunk sizes in its header are placeholders: set them to the real ones
function fixWavSizes(wav) {
  if (wav.length < 44 || wav.toString('ascii', 0, 4) !== 'RIFF') return wav;
  wav.writeUInt32LE(wav.length - 8, 4);
  for (let at = 12; at + 8 <= wav.length; ) {
    const id = wav.toString('ascii', at, at + 4);
    if (id === 'data') {
      wav.writeUInt32LE(wav.length - at - 8, at + 4);
      break;
    }
    at += 8 + wav.readUInt32LE(at + 4);
  }
  return wav;
}

function synthesize(text, voice, speed) {
  return new Promise((resolve, reject) => {
    const child = spawn(espeak, ['--stdout', '-v', voice, '-s', String(speed)], { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks = [];
    let errors = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(fixWavSizes(Buffer.concat(chunks)));
      else reject(new Error('espeak-ng exited with ' + code + ': ' + errors.trim().slice(0, 500)));
    });
    child.stdin.end(text);
  });
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') {
    try {
      fs.accessSync(espeak, fs.constants.X_OK);
      return reply(res, 200, { ok: true, program: espeak });
    } catch (error) {
      return reply(res, 503, { ok: false, error: String(error.message) });
    }
  }
  if (req.method !== 'POST' || req.url !== '/speak') return reply(res, 404, { error: 'not found' });
  let size = 0;
  const parts = [];
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY) { reply(res, 413, { error: 'body too large' }); req.destroy(); return; }
    parts.push(chunk);
  });
  req.on('end', () => {
    if (res.writableEnded) return;
    let body;
    try { body = JSON.parse(Buffer.concat(parts).toString('utf8')); } catch { return reply(res, 400, { error: 'body must be JSON' }); }
    const text = body && typeof body.text === 'string' ? body.text : '';
    const voice = body && typeof body.voice === 'string' ? body.voice : 'en';
    const speed = body && Number.isInteger(body.speed) ? body.speed : 160;
    if (!text.trim() || text.length > MAX_TEXT) return reply(res, 400, { error: 'text must be 1..' + MAX_TEXT + ' characters' });
    if (!VOICE.test(voice)) return reply(res, 400, { error: 'voice must be an espeak-ng voice name such as en or en-us' });
    if (speed < 80 || speed > 450) return reply(res, 400, { error: 'speed must be 80..450 words per minute' });
    synthesize(text, voice, speed).then(
      (wav) => reply(res, 200, wav, 'audio/wav'),
      (error) => reply(res, 502, { error: String(error.message) }),
    );
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write('tts server listening on 127.0.0.1:' + port + '\n'));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
`;
