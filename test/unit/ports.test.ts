/**
 * The launcher's port probes never wait for a connection they did not make:
 * a health poller that connects to the port while it is probed, and never
 * closes, must not hold up a start.
 */
import assert from 'node:assert/strict';
import { connect, Socket } from 'node:net';
import { test } from 'node:test';
import { freePorts, isPortFree } from '../../tools/stack/processes';

test('isPortFree answers although a stranger connects during the probe and never closes', { timeout: 20_000 }, async () => {
  const [port] = (await freePorts(1)) as [number];
  const strangers: Socket[] = [];
  let connected = 0;
  let hammering = true;
  // Connects as fast as it can, so that some connection lands while the probe listens; keeps every one open.
  const hammer = (async () => {
    while (hammering) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.once('connect', () => connected++);
      strangers.push(socket);
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  try {
    for (let i = 0; i < 50; i++) assert.equal(await isPortFree(port), true);
    assert.ok(connected > 0, 'some stranger connected while a probe listened');
  } finally {
    hammering = false;
    await hammer;
    for (const socket of strangers) socket.destroy();
  }
});

test('isPortFree says no for a port something listens on', async () => {
  const [port] = (await freePorts(1)) as [number];
  const { createServer } = await import('node:net');
  const server = createServer().listen(port, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    assert.equal(await isPortFree(port), false);
  } finally {
    server.close();
  }
});
