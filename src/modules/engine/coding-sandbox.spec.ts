import { codeOf, runInSandbox } from './coding-sandbox';

const limits = { timeoutMs: 5000, outputCap: 4096 };

describe('the coding sandbox', () => {
  it('runs a program and gives back what it printed and its exit code', async () => {
    const result = await runInSandbox('console.log(6 * 7); console.error("note"); process.exitCode = 3;', limits);
    expect(result).toMatchObject({ exitCode: 3, stdout: '42\n', stderr: 'note\n', timedOut: false, truncated: false });
  });

  it('lets the program read no file outside its folder, start no process and see no secret', async () => {
    process.env.SANDBOX_TEST_SECRET = 'hunter2';
    const result = await runInSandbox(
      `const fs = require('fs');
for (const attempt of [() => fs.readFileSync('/etc/hostname'), () => require('child_process').execFileSync('id')]) {
  try { attempt(); console.log('allowed'); } catch (e) { console.log(e.code); }
}
fs.writeFileSync('own.txt', 'mine'); console.log(fs.readFileSync('own.txt', 'utf8'));
console.log(String(process.env.SANDBOX_TEST_SECRET));`,
      limits,
    );
    delete process.env.SANDBOX_TEST_SECRET;
    expect(result.stdout.split('\n')).toEqual(['ERR_ACCESS_DENIED', 'ERR_ACCESS_DENIED', 'mine', 'undefined', '']);
  });

  it('kills a program past its time limit and caps what it prints', async () => {
    expect(await runInSandbox('for (;;) {}', { timeoutMs: 300, outputCap: 1024 })).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    const loud = await runInSandbox('process.stdout.write("x".repeat(100000))', { timeoutMs: 5000, outputCap: 1024 });
    expect(loud.stdout).toHaveLength(1024);
    expect(loud.truncated).toBe(true);
  });

  it('takes the code of a fenced block, or the whole answer', () => {
    expect(codeOf('Here:\n```js\nconsole.log(1)\n```\nDone.')).toBe('console.log(1)');
    expect(codeOf('console.log(2)')).toBe('console.log(2)');
  });
});
