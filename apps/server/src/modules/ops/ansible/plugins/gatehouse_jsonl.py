# Gatehouse's stdout callback for ansible-playbook: one JSON object per line on stdout, so the
# runner (ansibleProcess.ts) reads results as data and streams each host's output as it comes,
# instead of scraping the default callback's text. Copied into each run's private directory and
# enabled there with ANSIBLE_STDOUT_CALLBACK=gatehouse_jsonl (docs/ops.md, "Ansible").
#
# Events ("e"): "task" (a task starts), "result" (one host's result of one task: status ok,
# changed, failed, unreachable or skipped, with stdout, stderr, msg and rc), "stats" (the
# per-host summary at the end).
from __future__ import annotations

import json
import sys

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
    name: gatehouse_jsonl
    type: stdout
    short_description: JSON lines for Gatehouse
    description: One JSON object per line per task start, host result and final summary.
"""

MAX_TEXT = 65536


def _text(value):
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        value = "\n".join(str(v) for v in value)
    text = value if isinstance(value, str) else str(value)
    return text[-MAX_TEXT:]


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "stdout"
    CALLBACK_NAME = "gatehouse_jsonl"

    def _emit(self, obj):
        sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
        sys.stdout.flush()

    def _result(self, result, status):
        r = result._result
        changed = bool(r.get("changed"))
        self._emit(
            {
                "e": "result",
                "host": result._host.get_name(),
                "task": result._task.get_name(),
                "status": "changed" if status == "ok" and changed else status,
                "stdout": _text(r.get("stdout")),
                "stderr": _text(r.get("stderr")),
                "msg": _text(r.get("msg")),
                "rc": r.get("rc") if isinstance(r.get("rc"), int) else None,
            }
        )

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._emit({"e": "task", "task": task.get_name()})

    def v2_playbook_on_handler_task_start(self, task):
        self._emit({"e": "task", "task": task.get_name()})

    def v2_runner_on_ok(self, result):
        self._result(result, "ok")

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._result(result, "ignored" if ignore_errors else "failed")

    def v2_runner_on_unreachable(self, result):
        self._result(result, "unreachable")

    def v2_runner_on_skipped(self, result):
        self._result(result, "skipped")

    def v2_playbook_on_stats(self, stats):
        hosts = {}
        for host in sorted(stats.processed.keys()):
            hosts[host] = stats.summarize(host)
        self._emit({"e": "stats", "hosts": hosts})

    def v2_playbook_on_no_hosts_matched(self):
        self._emit({"e": "warning", "msg": "no hosts matched"})
