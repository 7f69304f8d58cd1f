import { describe, expect, it } from 'vitest';
import {
  canRemove,
  initialProtocols,
  markPrimary,
  nextRow,
  protocolsError,
  protocolsPayload,
  setPrimary,
  validPort,
} from './protocolRules.ts';

const linux = [
  { name: 'ssh', port: 22, primary: true, required: true },
  { name: 'sftp', port: 22, default: true, setting: { sftp_home: '/tmp' } },
  { name: 'telnet', port: 23 },
  { name: 'vnc', port: 5900 },
];

describe('protocol editor rules', () => {
  it('accepts ports 1–65535 written as digits only', () => {
    for (const ok of [1, 22, '2222', 65535]) expect(validPort(ok)).toBe(true);
    for (const bad of [0, 65536, '22a', '', null, -1, '1.5', ' ']) expect(validPort(bad)).toBe(false);
  });

  it('reports the first broken rule: empty, name, port, duplicate, primary', () => {
    expect(protocolsError([])).toBe('assets.protocol.empty');
    expect(protocolsError([{ name: '', port: 22 }])).toBe('assets.protocol.nameRequired');
    expect(protocolsError([{ name: 'ssh', port: 'abc' }])).toBe('assets.protocol.portError');
    expect(protocolsError([{ name: 'ssh', port: 70000 }])).toBe('assets.protocol.portError');
    expect(
      protocolsError([
        { name: 'ssh', port: 22 },
        { name: 'ssh', port: 23 },
      ]),
    ).toBe('assets.protocol.duplicate');
    expect(
      protocolsError(
        [
          { name: 'ssh', port: 22 },
          { name: 'rdp', port: 3389 },
        ],
        { choosePrimary: true },
      ),
    ).toBe('assets.protocol.onePrimary');
    expect(
      protocolsError(
        [
          { name: 'ssh', port: 22, primary: true },
          { name: 'rdp', port: 3389, primary: true },
        ],
        { choosePrimary: true },
      ),
    ).toBe('assets.protocol.onePrimary');
    expect(protocolsError([{ name: 'sftp', port: 22 }], { primaryName: 'ssh' })).toBe('assets.protocol.primaryMissing');
    expect(
      protocolsError(
        [
          { name: 'ssh', port: 22, primary: true },
          { name: 'sftp', port: '2222' },
        ],
        { primaryName: 'ssh', choosePrimary: true },
      ),
    ).toBeNull();
  });

  it('never removes the last row, the primary or a required protocol', () => {
    expect(canRemove([{ name: 'ssh', port: 22 }], 0)).toBe(false);
    const rows = [
      { name: 'ssh', port: 22, primary: true },
      { name: 'sftp', port: 22 },
      { name: 'rdp', port: 3389 },
    ];
    expect(canRemove(rows, 0)).toBe(false);
    expect(canRemove(rows, 1)).toBe(true);
    expect(canRemove(rows, 2, ['rdp'])).toBe(false);
    expect(canRemove(rows, 5)).toBe(false);
  });

  it('keeps exactly one primary when one is chosen', () => {
    const rows = setPrimary(
      [
        { name: 'ssh', port: 22, primary: true },
        { name: 'rdp', port: 3389 },
      ],
      1,
    );
    expect(rows.map((r) => r.primary)).toEqual([false, true]);
  });

  it('starts an asset from the platform: primary, required and default ones, primary first', () => {
    expect(initialProtocols([...linux].reverse())).toEqual([
      { name: 'ssh', port: 22, primary: true },
      { name: 'sftp', port: 22, primary: false },
    ]);
    expect(initialProtocols([{ name: 'http', port: 80 }])).toEqual([{ name: 'http', port: 80, primary: false }]);
  });

  it('adds the next unused protocol at its default port, none when all are used', () => {
    expect(
      nextRow(
        [
          { name: 'ssh', port: 22 },
          { name: 'sftp', port: 22 },
        ],
        linux,
      ),
    ).toMatchObject({ name: 'telnet', port: 23 });
    expect(nextRow(linux, linux)).toBeNull();
  });

  it('marks the platform primary on loaded rows and sends numbers (assets: name and port only)', () => {
    expect(
      markPrimary(
        [
          { name: 'sftp', port: 22 },
          { name: 'ssh', port: 22 },
        ],
        'ssh',
      ).map((r) => r.primary),
    ).toEqual([false, true]);
    expect(protocolsPayload([{ name: 'ssh', port: '2222', primary: true }], false)).toEqual([
      { name: 'ssh', port: 2222 },
    ]);
    expect(protocolsPayload([{ name: 'ssh', port: '2222', primary: true }], true)).toEqual([
      { name: 'ssh', port: 2222, primary: true },
    ]);
  });
});
