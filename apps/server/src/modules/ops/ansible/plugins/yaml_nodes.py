# Reads YAML files for Gatehouse's playbook check (playbookCheck.ts): stdin is a JSON list of file
# paths, stdout a JSON object {path: {"docs": [...]} | {"error": "..."}}. Only composes nodes (no
# object is constructed, every tag such as !unsafe or !vault is read as plain data), keeps each
# mapping's line as "__gh_line__", and stops at a node budget so aliases cannot blow up the output.
import json
import sys

import yaml

BUDGET = 200000


class TooBig(Exception):
    pass


def convert(node, left):
    if left[0] <= 0:
        raise TooBig()
    left[0] -= 1
    if isinstance(node, yaml.ScalarNode):
        return node.value
    if isinstance(node, yaml.SequenceNode):
        return [convert(n, left) for n in node.value]
    if isinstance(node, yaml.MappingNode):
        out = {"__gh_line__": node.start_mark.line + 1, "__gh_pairs__": []}
        for k, v in node.value:
            key = convert(k, left)
            out["__gh_pairs__"].append([key if isinstance(key, str) else json.dumps(key), convert(v, left)])
        return out
    return None


def main():
    files = json.load(sys.stdin)
    result = {}
    left = [BUDGET]
    for path in files:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                docs = [convert(n, left) for n in yaml.compose_all(f, Loader=yaml.SafeLoader)]
            result[path] = {"docs": docs}
        except TooBig:
            result[path] = {"error": "too many YAML nodes"}
            break
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            result[path] = {"error": str(getattr(e, "problem", None) or e), "line": mark.line + 1 if mark else 0}
    json.dump(result, sys.stdout)


main()
