"""Messages of the system metrics: the monitor's system pane (y) and the ``sys/...`` charts."""

MESSAGES: dict[str, tuple[str, str]] = {
    "ui.key.system": ("System", "系统"),
    "ui.system.title": ("System", "系统"),
    "ui.system.cpu": ("CPU {percent} %", "CPU {percent} %"),
    "ui.system.rss": ("RSS {mib} MiB", "RSS {mib} MiB"),
    "ui.system.rss_hint": ("(the run's processes)", "（本次运行的进程）"),
    "ui.system.no_gpu": ("no GPU on this machine (CPU only)", "本机没有 GPU（仅 CPU）"),
    "ui.system.waiting": ("waiting for the first system sample…", "等待第一次系统采样…"),
    "ui.system.none": (
        "this run recorded no system metrics (metrics.system: false, or an older run)",
        "本次运行没有记录系统指标（metrics.system: false，或较早的运行）",
    ),
    "ui.system.none_kit_log": (
        "a kit's log carries no system metrics: the workbench samples only the runs it starts",
        "套件日志不含系统指标：工作台只为它启动的运行采样",
    ),
    "ui.system.col.gpu": ("GPU", "GPU"),
    "ui.system.col.util": ("util", "利用率"),
    "ui.system.col.memory": ("memory used / total", "显存 已用 / 总量"),
    "ui.system.col.temp": ("temp", "温度"),
    "ui.system.col.power": ("power", "功耗"),
    "ui.chart.sys_cpu": ("CPU %", "CPU %"),
    "ui.chart.sys_rss": ("run memory (RSS, MiB)", "运行内存（RSS，MiB）"),
    "ui.chart.gpu_util": ("GPU {index} utilisation %", "GPU {index} 利用率 %"),
    "ui.chart.gpu_memory": ("GPU {index} memory used / total (MiB)", "GPU {index} 显存 已用 / 总量（MiB）"),
    "ui.chart.gpu_temp": ("GPU {index} temperature °C", "GPU {index} 温度 °C"),
    "ui.chart.gpu_power": ("GPU {index} power W", "GPU {index} 功耗 W"),
}
