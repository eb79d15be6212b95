/**
 * Fetches Java artifacts and their runtime dependencies from Maven Central
 * into a git-ignored cache (`.cache/services/<name>/lib`), with the machine's
 * Maven. The first call downloads; later calls find the `.complete` marker
 * and return at once.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface MavenArtifact {
  groupId: string;
  artifactId: string;
  version: string;
}

/** TEST_SERVICES_CACHE overrides it (the bench runs these launchers from dist/, where __dirname is one level deeper). */
export const SERVICES_CACHE = process.env.TEST_SERVICES_CACHE || join(__dirname, '..', '..', '..', '.cache', 'services');

function pom(name: string, artifacts: MavenArtifact[]): string {
  const deps = artifacts
    .map(
      (a) =>
        `    <dependency><groupId>${a.groupId}</groupId><artifactId>${a.artifactId}</artifactId><version>${a.version}</version></dependency>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.test-services</groupId>
  <artifactId>${name}</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
${deps}
  </dependencies>
</project>
`;
}

/** Returns the folder holding every jar needed to run the artifacts (a classpath of `<dir>/*`). */
export async function fetchArtifacts(name: string, artifacts: MavenArtifact[]): Promise<string> {
  const home = join(SERVICES_CACHE, name);
  const lib = join(home, 'lib');
  const marker = join(home, '.complete');
  const wanted = JSON.stringify(artifacts);
  if (existsSync(marker) && require('node:fs').readFileSync(marker, 'utf8') === wanted) return lib;
  rmSync(lib, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'pom.xml'), pom(name, artifacts));
  await promisify(execFile)(
    'mvn',
    ['-q', '-B', 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${lib}`],
    { cwd: home, maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60 * 1000 },
  );
  writeFileSync(marker, wanted);
  return lib;
}
