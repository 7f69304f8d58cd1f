import { useEffect, useRef } from 'react';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import { followTaskLog } from './taskLogSocket.ts';

interface Props {
  task: string;
  type: string;
  onEnd(): void;
  onError(): void;
}

/** A read-only xterm.js terminal fed by the task-log socket; it fills its box and follows resizes. */
export function TaskLogTerminal({ task, type, onEnd, onError }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onEnd, onError });
  handlers.current = { onEnd, onError };
  useEffect(() => {
    const term = new Terminal({
      convertEol: false,
      disableStdin: true,
      cursorBlink: false,
      fontSize: 13,
      scrollback: 10000,
      theme: { background: '#1f1f1f' },
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(box.current!);
    fit.fit();
    const onResize = () => fit.fit();
    window.addEventListener('resize', onResize);
    const stop = followTaskLog(task, type, {
      onMessage: (text) => term.write(text),
      onEnd: () => handlers.current.onEnd(),
      onError: () => handlers.current.onError(),
    });
    return () => {
      stop();
      window.removeEventListener('resize', onResize);
      term.dispose();
    };
  }, [task, type]);
  return (
    <div
      ref={box}
      data-testid="task-log-terminal"
      style={{ flex: 1, minHeight: 300, background: '#1f1f1f', padding: 8 }}
    />
  );
}
