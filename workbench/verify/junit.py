"""The checklist as JUnit XML: one ``<testcase>`` per item, grouped in one ``<testsuite>`` per layer.

CI systems (GitLab, Jenkins, GitHub test reporters) read this shape: a failing item is a
``<failure message=…>`` with its evidence; an item without evidence is ``<skipped message=…>`` naming
the command that produces it (a failure instead under ``strict``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from workbench.verify.engine import VerifyResult
from workbench.verify.model import FAIL, NOT_RUN


def to_junit(result: VerifyResult) -> str:
    """The JUnit XML document (UTF-8 text with the XML declaration)."""
    root = ET.Element("testsuites", name="paddle-workbench verify")
    layers: dict[str, ET.Element] = {}
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for item in result.items:
        suite = layers.get(item.layer)
        if suite is None:
            suite = layers[item.layer] = ET.SubElement(root, "testsuite", name=item.layer)
            suite.attrib.update(tests="0", failures="0", errors="0", skipped="0")
        case = ET.SubElement(suite, "testcase", classname=f"verify.{item.layer}", name=item.id)
        suite.set("tests", str(int(suite.get("tests", "0")) + 1))
        totals["tests"] += 1
        failed = item.status == FAIL or (result.strict and item.status == NOT_RUN)
        if failed:
            node = ET.SubElement(case, "failure", message=item.evidence, type=item.status)
            node.text = f"{item.evidence}\n{item.command}".strip()
            suite.set("failures", str(int(suite.get("failures", "0")) + 1))
            totals["failures"] += 1
        elif item.status == NOT_RUN:
            ET.SubElement(case, "skipped", message=f"{item.evidence} — {item.command}")
            suite.set("skipped", str(int(suite.get("skipped", "0")) + 1))
            totals["skipped"] += 1
        else:
            ET.SubElement(case, "system-out").text = item.evidence
    root.attrib.update({k: str(v) for k, v in totals.items()}, errors="0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
