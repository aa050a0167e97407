"""Strings shared by every part of the workbench."""

MESSAGES: dict[str, tuple[str, str]] = {
    "app.title": ("Paddle Workbench", "Paddle 工作台"),
    "status.running": ("running", "运行中"),
    "status.paused": ("paused", "已暂停"),
    "status.finished": ("finished", "已完成"),
    "status.failed": ("failed", "失败"),
    "status.cancelled": ("cancelled", "已取消"),
    "status.interrupted": ("interrupted", "已中断"),
    "status.pass": ("pass", "通过"),
    "status.warn": ("warn", "警告"),
    "status.fail": ("fail", "失败"),
    "status.skip": ("skip", "跳过"),
    "common.none": ("—", "—"),
    "common.error": ("Error", "错误"),
    "common.fix": ("Fix", "修复"),
}
