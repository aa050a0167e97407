"""Environment check (``paddle-workbench check`` and the ``env`` screen): verdicts, fixes, labels."""

MESSAGES: dict[str, tuple[str, str]] = {
    # ------------------------------------------------------------------ CLI
    "cli.check.opt.markdown": (
        "Print a markdown bug-report block (verdicts, fixes, environment) on stdout.",
        "在标准输出打印 Markdown 格式的问题报告（结论、修复方法、环境信息）。",
    ),
    "cli.check.opt.timeout": (
        "Upper bound in seconds for the whole check (default {default}, must be > 0).",
        "整个检查的时间上限，单位为秒（默认 {default}，须大于 0）。",
    ),
    "cli.check.timeout_positive": ("{value} is not a positive number of seconds", "{value} 不是正的秒数"),
    "cli.check.timeout_finite": (
        "{value} is not a finite number of seconds (e.g. --timeout 300)",
        "{value} 不是有限的秒数（例如 --timeout 300）",
    ),
    "cli.check.exclusive": (
        "error: --json and --markdown cannot be used together.",
        "错误：--json 与 --markdown 不能同时使用。",
    ),
    "cli.check.running": ("Checking the environment…", "正在检查环境…"),
    "cli.check.progress": (
        "Checking the environment… {done} done (last: {last})",
        "正在检查环境…已完成 {done} 项（最近：{last}）",
    ),
    # ------------------------------------------------------------------ engine
    "envcheck.timed_out": ("timed out after {seconds} s", "{seconds} 秒后超时"),
    "envcheck.cancelled": ("cancelled", "已取消"),
    "envcheck.no_output": ("the probe printed no result", "探针没有输出结果"),
    "envcheck.exit.signal": ("killed by signal {signal}", "被信号 {signal} 终止"),
    "envcheck.exit.code": ("exit code {code}", "退出码 {code}"),
    "envcheck.unknown_probe": ("no probe with this name is defined", "未定义该名称的探针"),
    "envcheck.probe_timed_out": (
        "the {probe} probe timed out after {seconds} s",
        "探针 {probe} 在 {seconds} 秒后超时",
    ),
    "envcheck.probe_failed": ("the {probe} probe failed: {error}", "探针 {probe} 运行失败：{error}"),
    "envcheck.not_run": (
        "not run: the overall time budget of {seconds} s ran out",
        "未运行：总时间预算 {seconds} 秒已用完",
    ),
    "envcheck.probe_not_run": (
        "not checked: the {probe} probe did not start before the overall time budget of {seconds} s ran out",
        "未检查：总时间预算 {seconds} 秒用完前探针 {probe} 未能启动",
    ),
    "envcheck.rule_crashed": ("internal error in check {rule}: {error}", "检查项 {rule} 内部错误：{error}"),
    "envcheck.yes": ("yes", "是"),
    "envcheck.no": ("no", "否"),
    # ------------------------------------------------------------------ titles
    "envcheck.title.python": ("Python", "Python"),
    "envcheck.title.python.venv": ("Environment", "虚拟环境"),
    "envcheck.title.paddle.install": ("Paddle install", "Paddle 安装"),
    "envcheck.title.paddle.import": ("import paddle", "import paddle"),
    "envcheck.title.paddle.build": ("Paddle build", "Paddle 编译信息"),
    "envcheck.title.numpy": ("numpy", "numpy"),
    "envcheck.title.tensor_op": ("Tensor op", "张量运算"),
    "envcheck.title.run_check.static": ("run_check: static", "run_check：静态图"),
    "envcheck.title.run_check.dygraph": ("run_check: dygraph", "run_check：动态图"),
    "envcheck.title.run_check.parallel": ("run_check: multi-device", "run_check：多设备"),
    "envcheck.title.gpu.driver": ("GPU driver", "GPU 驱动"),
    "envcheck.title.gpu.cuda_version": ("CUDA: driver vs wheel", "CUDA：驱动与安装包"),
    "envcheck.title.gpu.compute_capability": ("GPU architecture", "GPU 架构"),
    "envcheck.title.gpu.visible": ("Visible GPUs", "可见 GPU"),
    "envcheck.title.gpu.libraries": ("CUDA libraries", "CUDA 库"),
    "envcheck.title.ld_library_path": ("LD_LIBRARY_PATH", "LD_LIBRARY_PATH"),
    "envcheck.title.environment": ("Variables", "环境变量"),
    "envcheck.title.system.resources": ("CPU and memory", "CPU 与内存"),
    "envcheck.title.system.shm": ("Shared memory", "共享内存"),
    "envcheck.title.system.disk": ("Workspace disk", "工作区磁盘"),
    # ------------------------------------------------------------------ python / venv
    "envcheck.python.ok": (
        "Python {version} at {executable} ({kind})",
        "Python {version}，位于 {executable}（{kind}）",
    ),
    "envcheck.python.kind.venv": ("virtual environment {prefix}", "虚拟环境 {prefix}"),
    "envcheck.python.kind.conda": ("conda environment {env}", "conda 环境 {env}"),
    "envcheck.python.kind.system": ("no virtual environment", "未使用虚拟环境"),
    "envcheck.python.unsupported": (
        "Python {version}: Paddle 3.3 wheels exist for Python {low} to {high} only",
        "Python {version}：Paddle 3.3 只为 Python {low} 至 {high} 提供安装包",
    ),
    "envcheck.venv.ok": (
        "the workbench and Paddle use the same interpreter ({kind})",
        "工作台与 Paddle 使用同一个解释器（{kind}）",
    ),
    "envcheck.venv.nearby": (
        "virtual environment {path} (contains paddle: {paddle})",
        "虚拟环境 {path}（包含 paddle：{paddle}）",
    ),
    "envcheck.venv.paddle_elsewhere": (
        "Paddle is installed in {venv}, but this interpreter ({executable}) cannot import it: that environment is not active",
        "Paddle 安装在 {venv} 中，但当前解释器（{executable}）无法导入：该环境未激活",
    ),
    "envcheck.venv.mismatch": (
        "the shell activated {venv}, but the workbench runs on {executable}",
        "当前 shell 激活的是 {venv}，但工作台运行在 {executable} 上",
    ),
    "envcheck.venv.script_elsewhere": (
        "`paddle-workbench` on PATH ({script}) runs {python}, not this interpreter",
        "PATH 中的 `paddle-workbench`（{script}）使用的是 {python}，而不是当前解释器",
    ),
    # ------------------------------------------------------------------ install / import / build / numpy
    "envcheck.install.dist": (
        "{name} {version} in {location} (installed by {installer})",
        "{name} {version}，位于 {location}（安装工具：{installer}）",
    ),
    "envcheck.install.ok": (
        "{name} {version} (installed by {installer})",
        "{name} {version}（安装工具：{installer}）",
    ),
    "envcheck.install.both": (
        "more than one Paddle distribution is installed ({names}): they overwrite each other's files",
        "同时安装了多个 Paddle 发行包（{names}）：它们会互相覆盖文件",
    ),
    "envcheck.install.twice": (
        "{name} is installed twice, in different locations",
        "{name} 在不同位置安装了两次",
    ),
    "envcheck.install.unmanaged": (
        "paddle is importable from {origin}, but no paddlepaddle distribution is installed (a source tree?)",
        "可以从 {origin} 导入 paddle，但没有安装任何 paddlepaddle 发行包（可能是源码目录？）",
    ),
    "envcheck.install.none": ("Paddle is not installed for {executable}", "{executable} 中没有安装 Paddle"),
    "envcheck.import.ok": (
        "paddle {version} imports ({seconds} s)",
        "paddle {version} 导入成功（{seconds} 秒）",
    ),
    "envcheck.import.missing": (
        "import paddle fails: Paddle is not installed for {executable}",
        "import paddle 失败：{executable} 中没有安装 Paddle",
    ),
    "envcheck.import.failed": ("import paddle fails: {error}", "import paddle 失败：{error}"),
    "envcheck.import.library": (
        "import paddle fails: the shared library {library} does not load ({error})",
        "import paddle 失败：共享库 {library} 无法加载（{error}）",
    ),
    "envcheck.import.shadowed": (
        "import paddle fails ({error}): the paddle at {path} shadows the installed one",
        "import paddle 失败（{error}）：{path} 处的 paddle 遮蔽了已安装的版本",
    ),
    "envcheck.import.shadow_ok": (
        "paddle imports, but from {path}, not from the installed distribution",
        "paddle 可以导入，但来自 {path}，而不是已安装的发行包",
    ),
    "envcheck.import.version_mismatch": (
        "the installed distribution says {installed} but the imported paddle is {imported}",
        "已安装发行包的版本为 {installed}，但实际导入的 paddle 为 {imported}",
    ),
    "envcheck.build.cpu": (
        "CPU build {version} (commit {commit}), MKL {mkl}, oneDNN {onednn}",
        "CPU 版 {version}（commit {commit}），MKL {mkl}，oneDNN {onednn}",
    ),
    "envcheck.build.cuda": (
        "CUDA {cuda} build {version}, cuDNN {cudnn} (commit {commit})",
        "CUDA {cuda} 版 {version}，cuDNN {cudnn}（commit {commit}）",
    ),
    "envcheck.build.other": (
        "{kind} build {version} (commit {commit})",
        "{kind} 版 {version}（commit {commit}）",
    ),
    "envcheck.build.static": (
        "Paddle {version} (CUDA {cuda}) read from paddle/version; it does not import",
        "从 paddle/version 读取到 Paddle {version}（CUDA {cuda}）；无法导入",
    ),
    "envcheck.build.unknown": ("no Paddle to describe", "没有可描述的 Paddle"),
    "envcheck.build.no_avx": (
        "this CPU has no AVX, which the Paddle wheels require",
        "此 CPU 不支持 AVX，而 Paddle 安装包需要 AVX",
    ),
    "envcheck.numpy.ok": ("numpy {version}", "numpy {version}"),
    "envcheck.numpy.missing": ("numpy is not installed (Paddle needs it)", "未安装 numpy（Paddle 依赖它）"),
    "envcheck.numpy.too_new": (
        "numpy {numpy} breaks Paddle {paddle}: float(t)/int(t) on tensors raise TypeError",
        "numpy {numpy} 与 Paddle {paddle} 不兼容：对张量调用 float(t)/int(t) 会抛出 TypeError",
    ),
    # ------------------------------------------------------------------ smoke tests
    "envcheck.stage.static": ("static-graph training step", "静态图训练步骤"),
    "envcheck.stage.dygraph": ("dygraph training step", "动态图训练步骤"),
    "envcheck.stage.parallel": ("multi-device data-parallel step", "多设备数据并行步骤"),
    "envcheck.stage.ok": (
        "{stage} ran on {count} {device} ({seconds} s)",
        "{stage}在 {count} 个 {device} 上运行成功（{seconds} 秒）",
    ),
    "envcheck.stage.failed": ("{stage} failed: {error}", "{stage}失败：{error}"),
    "envcheck.stage.skipped": ("{stage} not run: {reason}", "{stage}未运行：{reason}"),
    "envcheck.stage.skipped_import": (
        "{stage} not run: import paddle fails (see “import paddle”)",
        "{stage}未运行：import paddle 失败（见“import paddle”）",
    ),
    "envcheck.stage.reason.import": ("import paddle fails", "import paddle 失败"),
    "envcheck.stage.reason.cpu": ("CPU build, one device (GPU item)", "CPU 版本，仅一个设备（GPU 检查项）"),
    "envcheck.stage.reason.one_device": ("only {count} device visible", "仅有 {count} 个可见设备"),
    "envcheck.tensor_op.ok": (
        "[1, 2, 3] + [4, 5, 6] = {result} on {place}",
        "[1, 2, 3] + [4, 5, 6] = {result}，设备 {place}",
    ),
    "envcheck.tensor_op.wrong": (
        "[1, 2, 3] + [4, 5, 6] gave {result}, not [5, 7, 9]",
        "[1, 2, 3] + [4, 5, 6] 得到 {result}，而不是 [5, 7, 9]",
    ),
    "envcheck.tensor_op.failed": ("the tensor op failed: {error}", "张量运算失败：{error}"),
    "envcheck.tensor_op.skipped": (
        "not run: import paddle fails (see “import paddle”)",
        "未运行：import paddle 失败（见“import paddle”）",
    ),
    # ------------------------------------------------------------------ GPU
    "envcheck.gpu.line": (
        "GPU {index}: {name}, {memory} MiB, compute capability {capability}",
        "GPU {index}：{name}，{memory} MiB，计算能力 {capability}",
    ),
    "envcheck.gpu.reason.cpu": (
        "not a GPU setup: CPU build of Paddle (GPU item)",
        "非 GPU 环境：Paddle 为 CPU 版本（GPU 检查项）",
    ),
    "envcheck.gpu.reason.other": (
        "{kind} build: NVIDIA checks do not apply",
        "{kind} 版本：不适用 NVIDIA 检查",
    ),
    "envcheck.gpu.no_gpu_cpu_build": (
        "no NVIDIA driver or GPU found; CPU build of Paddle (GPU item)",
        "未发现 NVIDIA 驱动或 GPU；Paddle 为 CPU 版本（GPU 检查项）",
    ),
    "envcheck.gpu.cpu_wheel_with_gpu": (
        "{count} {count:GPU|GPUs} found, but the CPU build of Paddle is installed",
        "发现 {count} 块 GPU，但安装的是 CPU 版 Paddle",
    ),
    "envcheck.gpu.driver_ok": (
        "driver {driver} (CUDA {cuda}), {count} {count:GPU|GPUs}: {names}",
        "驱动 {driver}（CUDA {cuda}），{count} 块 GPU：{names}",
    ),
    "envcheck.gpu.gpu_wheel_no_gpu": (
        "the GPU build of Paddle is installed, but this machine has no NVIDIA driver or GPU",
        "安装的是 GPU 版 Paddle，但本机没有 NVIDIA 驱动或 GPU",
    ),
    "envcheck.gpu.driver_no_devices": (
        "the NVIDIA driver is loaded but reports no GPU",
        "NVIDIA 驱动已加载，但没有报告任何 GPU",
    ),
    "envcheck.gpu.driver_not_responding": (
        "/dev/nvidia* exists but the driver does not answer (no NVML, nvidia-smi or libcuda)",
        "存在 /dev/nvidia*，但驱动没有响应（NVML、nvidia-smi、libcuda 均不可用）",
    ),
    "envcheck.gpu.cuda_unknown_driver": ("the driver's CUDA version is unknown", "驱动支持的 CUDA 版本未知"),
    "envcheck.gpu.cuda_unknown_wheel": ("the wheel's CUDA version is unknown", "安装包的 CUDA 版本未知"),
    "envcheck.gpu.cuda_ok": (
        "driver supports CUDA {driver} ≥ wheel's CUDA {wheel}",
        "驱动支持 CUDA {driver} ≥ 安装包的 CUDA {wheel}",
    ),
    "envcheck.gpu.cuda_too_old": (
        "the driver supports CUDA {driver} only, but the wheel is built for CUDA {wheel}",
        "驱动仅支持 CUDA {driver}，但安装包是为 CUDA {wheel} 编译的",
    ),
    "envcheck.gpu.cuda_minor_older": (
        "the driver supports CUDA {driver}, older than the wheel's CUDA {wheel}: most kernels run, JIT-compiled ones fail",
        "驱动支持 CUDA {driver}，低于安装包的 CUDA {wheel}：大多数算子可运行，但需 JIT 编译的算子会失败",
    ),
    "envcheck.gpu.archs_unknown": (
        "the wheel does not list its CUDA architectures",
        "安装包未列出其 CUDA 架构",
    ),
    "envcheck.gpu.capability_unknown": ("the GPUs' compute capability is unknown", "GPU 的计算能力未知"),
    "envcheck.gpu.capability_ok": (
        "GPU architecture {capabilities} is covered by the wheel ({archs})",
        "GPU 架构 {capabilities} 在安装包支持范围内（{archs}）",
    ),
    "envcheck.gpu.capability_unsupported": (
        "{name} (compute capability {capability}) is not among the wheel's architectures ({archs})",
        "{name}（计算能力 {capability}）不在安装包支持的架构中（{archs}）",
    ),
    "envcheck.gpu.visible_no_driver": ("no GPU reported by the driver", "驱动没有报告 GPU"),
    "envcheck.gpu.visible_hidden": (
        'CUDA_VISIBLE_DEVICES="{value}" hides every GPU',
        'CUDA_VISIBLE_DEVICES="{value}" 隐藏了所有 GPU',
    ),
    "envcheck.gpu.visible_out_of_range": (
        "CUDA_VISIBLE_DEVICES={value} names GPUs the driver does not have ({count} present)",
        "CUDA_VISIBLE_DEVICES={value} 指定了不存在的 GPU（实际有 {count} 块）",
    ),
    "envcheck.gpu.paddle_sees_none": (
        "the driver reports {count} {count:GPU|GPUs} but Paddle sees none",
        "驱动报告了 {count} 块 GPU，但 Paddle 一块也看不到",
    ),
    "envcheck.gpu.device_order": (
        "mixed GPU models: CUDA numbers them fastest-first, nvidia-smi by PCI bus",
        "GPU 型号不一：CUDA 按性能排序编号，nvidia-smi 按 PCI 总线编号",
    ),
    "envcheck.gpu.visible_ok": ("Paddle sees {count} {count:GPU|GPUs}", "Paddle 可见 {count} 块 GPU"),
    "envcheck.libs.loaded": ("{lib}: {path}", "{lib}：{path}"),
    "envcheck.libs.missing": ("{lib}: does not load ({error})", "{lib}：无法加载（{error}）"),
    "envcheck.libs.ok": (
        "cuDNN, cuBLAS, CUDA runtime and NCCL load",
        "cuDNN、cuBLAS、CUDA 运行时与 NCCL 均可加载",
    ),
    "envcheck.libs.required_missing": (
        "required CUDA libraries do not load: {libs}",
        "必需的 CUDA 库无法加载：{libs}",
    ),
    "envcheck.libs.optional_missing": (
        "{libs} does not load: multi-GPU training will fail",
        "{libs} 无法加载：多卡训练将失败",
    ),
    "envcheck.ld.unset": ("LD_LIBRARY_PATH is not set", "未设置 LD_LIBRARY_PATH"),
    "envcheck.ld.ok": (
        "{count} {count:directory|directories}, no duplicate CUDA libraries",
        "{count} 个目录，没有重复的 CUDA 库",
    ),
    "envcheck.ld.dir": ("dir: {dir}", "目录：{dir}"),
    "envcheck.ld.duplicate": ("{lib} in: {dirs}", "{lib} 位于：{dirs}"),
    "envcheck.ld.duplicates": (
        "{lib} is in {count} directories on LD_LIBRARY_PATH; {first} wins",
        "{lib} 出现在 LD_LIBRARY_PATH 的 {count} 个目录中；实际加载 {first} 中的版本",
    ),
    "envcheck.ld.stubs": (
        "LD_LIBRARY_PATH contains a CUDA stubs directory ({dirs}): its libcuda.so is a stub that fails at run time",
        "LD_LIBRARY_PATH 包含 CUDA stubs 目录（{dirs}）：其中的 libcuda.so 只是占位库，运行时会失败",
    ),
    # ------------------------------------------------------------------ host
    "envcheck.env.ok": (
        "{count} {count:variable that affects Paddle is|variables that affect Paddle are} set",
        "设置了 {count} 个影响 Paddle 的环境变量",
    ),
    "envcheck.env.none": ("no variable that affects Paddle is set", "没有设置影响 Paddle 的环境变量"),
    "envcheck.env.omp_invalid": (
        "OMP_NUM_THREADS={value} is not a number",
        "OMP_NUM_THREADS={value} 不是数字",
    ),
    "envcheck.env.omp_too_many": (
        "OMP_NUM_THREADS={value} exceeds the {cpus} usable CPUs",
        "OMP_NUM_THREADS={value} 超过了可用 CPU 数 {cpus}",
    ),
    "envcheck.env.omp_note": (
        "note: OMP_NUM_THREADS is unset, so import paddle sets it to 1; for CPU training export OMP_NUM_THREADS={cpus}",
        "提示：未设置 OMP_NUM_THREADS，import paddle 会将其设为 1；CPU 训练时请 export OMP_NUM_THREADS={cpus}",
    ),
    "envcheck.system.ok": (
        "{cpus} {cpus:CPU|CPUs} ({model}), {total} RAM ({available} free), AVX2 {avx2}, AVX-512 {avx512}",
        "{cpus} 个 CPU（{model}），内存 {total}（可用 {available}），AVX2 {avx2}，AVX-512 {avx512}",
    ),
    "envcheck.system.low_memory": ("only {available} of memory is free", "可用内存仅剩 {available}"),
    "envcheck.shm.absent": ("no /dev/shm on this system", "本系统没有 /dev/shm"),
    "envcheck.shm.ok": ("/dev/shm: {total} ({free} free)", "/dev/shm：{total}（可用 {free}）"),
    "envcheck.shm.small": (
        "/dev/shm is only {total}: DataLoader workers (num_workers > 0) will crash",
        "/dev/shm 只有 {total}：DataLoader 多进程（num_workers > 0）会崩溃",
    ),
    "envcheck.disk.ok": ("{free} free for the workspace {path}", "工作区 {path} 可用空间 {free}"),
    "envcheck.disk.low": ("only {free} free for the workspace {path}", "工作区 {path} 可用空间仅 {free}"),
    "envcheck.disk.full": (
        "the workspace disk is full: {free} free at {path}",
        "工作区磁盘已满：{path} 仅剩 {free}",
    ),
    "envcheck.disk.unknown": ("workspace disk space unknown", "工作区磁盘空间未知"),
    # ------------------------------------------------------------------ fixes
    "envcheck.fix.not_run": (
        "Run the check again with more time: paddle-workbench check --timeout {seconds}",
        "请给更多时间重新检查：paddle-workbench check --timeout {seconds}",
    ),
    "envcheck.fix.probe_failed": (
        "Run the check again; if the {probe} probe keeps failing, paste `paddle-workbench check --markdown` into a bug report.",
        "重新运行检查；若探针 {probe} 仍然失败，请将 `paddle-workbench check --markdown` 的输出附在问题报告中。",
    ),
    "envcheck.fix.paddle_probe_failed": (
        "Paddle hung or crashed in a child process. Try it by hand to see its output:\n"
        'python -c "import paddle; paddle.utils.run_check()"\n'
        "If it hangs at import, check the file system holding site-packages; if it crashes, reinstall Paddle.",
        "Paddle 在子进程中卡住或崩溃。请手动运行以查看输出：\n"
        'python -c "import paddle; paddle.utils.run_check()"\n'
        "若卡在导入阶段，请检查 site-packages 所在的文件系统；若崩溃，请重新安装 Paddle。",
    ),
    "envcheck.fix.rule_crashed": (
        "This is a bug in the workbench: please report it with `paddle-workbench check --json`.",
        "这是工作台的缺陷：请附上 `paddle-workbench check --json` 的输出报告问题。",
    ),
    "envcheck.fix.python_version": (
        "Create an environment with a supported Python: python3.11 -m venv .venv && . .venv/bin/activate",
        "使用受支持的 Python 创建环境：python3.11 -m venv .venv && . .venv/bin/activate",
    ),
    "envcheck.fix.activate": (
        "Activate it and run again: source {venv}/bin/activate && paddle-workbench check",
        "激活该环境后重新运行：source {venv}/bin/activate && paddle-workbench check",
    ),
    "envcheck.fix.install_workbench_in": (
        "Install the workbench into the active environment: {python} -m pip install paddle-workbench",
        "将工作台安装到当前激活的环境：{python} -m pip install paddle-workbench",
    ),
    "envcheck.fix.use_module": (
        "Run `{executable} -m workbench` instead, or put {bin} first on PATH.",
        "改用 `{executable} -m workbench` 运行，或将 {bin} 放在 PATH 最前面。",
    ),
    "envcheck.fix.install": ("Install it: {command}", "安装：{command}"),
    "envcheck.fix.both_wheels": (
        "Remove all of them, then install the one that matches this machine:\n{uninstall}\n{install}",
        "全部卸载后，再安装与本机匹配的版本：\n{uninstall}\n{install}",
    ),
    "envcheck.fix.install_twice": (
        "Uninstall until none is left, then install once:\n{uninstall}   (repeat until pip says it is not installed)\n{install}",
        "反复卸载直到完全移除，再安装一次：\n{uninstall}   （重复执行，直到 pip 提示未安装）\n{install}",
    ),
    "envcheck.fix.shadow": (
        "Rename or remove {path}, or take its parent off PYTHONPATH / leave that directory: it is imported instead of the installed Paddle.",
        "重命名或删除 {path}，或将其上级目录从 PYTHONPATH 中移除 / 离开该目录：它会取代已安装的 Paddle 被导入。",
    ),
    "envcheck.fix.reinstall": ("Reinstall Paddle: {command}", "重新安装 Paddle：{command}"),
    "envcheck.fix.library": (
        "{library} is part of the CUDA stack; reinstall the wheel with its CUDA libraries: {command}",
        "{library} 属于 CUDA 组件；请重新安装带 CUDA 库的安装包：{command}",
    ),
    "envcheck.fix.numpy_pin": ("Pin numpy below 2.4: {command}", "将 numpy 固定在 2.4 以下：{command}"),
    "envcheck.fix.no_avx": (
        "Use a machine whose CPU has AVX, or build Paddle from source with -DWITH_AVX=OFF.",
        "请使用支持 AVX 的 CPU，或以 -DWITH_AVX=OFF 从源码编译 Paddle。",
    ),
    "envcheck.fix.stage": (
        'Run it by hand for the full output: python -c "import paddle; paddle.utils.run_check()"\nIf it still fails, reinstall: {command}',
        '手动运行以查看完整输出：python -c "import paddle; paddle.utils.run_check()"\n若仍失败，请重新安装：{command}',
    ),
    "envcheck.fix.stage_gpu": (
        "A CUDA error: fix the GPU items of this check first (driver, CUDA version, libraries, visible GPUs).",
        "CUDA 错误：请先修复本检查中的 GPU 相关项（驱动、CUDA 版本、库、可见 GPU）。",
    ),
    "envcheck.fix.stage_parallel": (
        "Multi-device check failed: make sure NCCL loads (see “CUDA libraries”), no other process holds the GPUs, and try NCCL_DEBUG=INFO for details.",
        "多设备检查失败：请确认 NCCL 可加载（见“CUDA 库”）、GPU 未被其他进程占用，并设置 NCCL_DEBUG=INFO 查看详情。",
    ),
    "envcheck.fix.switch_to_gpu": (
        "Replace the CPU build with the GPU build for this driver:\n{uninstall}\n{install}",
        "将 CPU 版替换为与该驱动匹配的 GPU 版：\n{uninstall}\n{install}",
    ),
    "envcheck.fix.switch_to_cpu": (
        "On a machine without a GPU, use the CPU build:\n{uninstall}\n{install}",
        "在没有 GPU 的机器上请使用 CPU 版：\n{uninstall}\n{install}",
    ),
    "envcheck.fix.driver_too_old_for_any": (
        "Upgrade the NVIDIA driver to one that supports at least CUDA {cuda}.",
        "请将 NVIDIA 驱动升级到至少支持 CUDA {cuda} 的版本。",
    ),
    "envcheck.fix.no_devices": (
        "In a container, start it with GPUs (docker run --gpus all …); otherwise check `nvidia-smi` and that CUDA_VISIBLE_DEVICES is not empty.",
        "若在容器中，请以 GPU 方式启动（docker run --gpus all …）；否则请检查 `nvidia-smi`，并确认 CUDA_VISIBLE_DEVICES 不为空。",
    ),
    "envcheck.fix.driver_not_responding": (
        "The NVIDIA driver does not respond: run `nvidia-smi`, look for NVRM errors in `sudo dmesg`, and reboot or reload the driver if it hangs.",
        "NVIDIA 驱动无响应：运行 `nvidia-smi`，在 `sudo dmesg` 中查找 NVRM 错误；若卡住，请重启或重新加载驱动。",
    ),
    "envcheck.fix.cuda_wheel_or_driver": (
        "Install the build for CUDA {variant}, which this driver runs:\n{command}\nor upgrade the NVIDIA driver to one that supports CUDA {wheel}.",
        "安装该驱动可运行的 CUDA {variant} 版本：\n{command}\n或将 NVIDIA 驱动升级到支持 CUDA {wheel} 的版本。",
    ),
    "envcheck.fix.driver_upgrade": (
        "Upgrade the NVIDIA driver to one that supports CUDA {wheel}.",
        "请将 NVIDIA 驱动升级到支持 CUDA {wheel} 的版本。",
    ),
    "envcheck.fix.newer_gpu": (
        "This GPU is newer than the wheel: install the CUDA {cuda} build (the driver must support CUDA {cuda}):\n{command}",
        "该 GPU 比安装包更新：请安装 CUDA {cuda} 版本（驱动需支持 CUDA {cuda}）：\n{command}",
    ),
    "envcheck.fix.older_gpu": (
        "This GPU is older than the wheel supports: try the CUDA {cuda} build, which keeps older architectures:\n{command}",
        "该 GPU 过旧，当前安装包不再支持：请尝试保留旧架构的 CUDA {cuda} 版本：\n{command}",
    ),
    "envcheck.fix.source_build": (
        "No published wheel covers compute capability {capability}: build Paddle from source with CUDA_ARCH_NAME=Manual.",
        "没有已发布的安装包支持计算能力 {capability}：请以 CUDA_ARCH_NAME=Manual 从源码编译 Paddle。",
    ),
    "envcheck.fix.unset_visible": (
        "unset CUDA_VISIBLE_DEVICES   (or export CUDA_VISIBLE_DEVICES=0 to use the first GPU)",
        "unset CUDA_VISIBLE_DEVICES   （或 export CUDA_VISIBLE_DEVICES=0 使用第一块 GPU）",
    ),
    "envcheck.fix.export": ("export {assignment}", "export {assignment}"),
    "envcheck.fix.pip_cuda_libraries": (
        "This wheel takes its CUDA libraries from pip packages (nvidia-*); reinstall them with it:\n{command}",
        "该安装包通过 pip 包（nvidia-*）获取 CUDA 库；请一并重新安装：\n{command}",
    ),
    "envcheck.fix.system_cuda_libraries": (
        "Install cuDNN, cuBLAS and NCCL for CUDA {cuda}, then export LD_LIBRARY_PATH=<directory with libcudnn.so>:$LD_LIBRARY_PATH",
        "安装适用于 CUDA {cuda} 的 cuDNN、cuBLAS 与 NCCL，然后 export LD_LIBRARY_PATH=<libcudnn.so 所在目录>:$LD_LIBRARY_PATH",
    ),
    "envcheck.fix.memory": (
        "Close other programs, or lower batch_size / DataLoader num_workers.",
        "关闭其他程序，或调小 batch_size / DataLoader 的 num_workers。",
    ),
    "envcheck.fix.shm": (
        "In Docker: docker run --shm-size=8g …; on a host: sudo mount -o remount,size=8G /dev/shm; or DataLoader(use_shared_memory=False).",
        "Docker 中：docker run --shm-size=8g …；宿主机上：sudo mount -o remount,size=8G /dev/shm；或使用 DataLoader(use_shared_memory=False)。",
    ),
    "envcheck.fix.disk": (
        "Free some space, or put the workspace on a larger disk: paddle-workbench --workspace /path/with/space …",
        "清理磁盘空间，或将工作区放到更大的磁盘：paddle-workbench --workspace /有空间的路径 …",
    ),
    # ------------------------------------------------------------------ labels (details)
    "envcheck.label.executable": ("interpreter", "解释器"),
    "envcheck.label.prefix": ("prefix", "安装前缀"),
    "envcheck.label.base_prefix": ("base prefix", "基础安装前缀"),
    "envcheck.label.pythonpath": ("PYTHONPATH", "PYTHONPATH"),
    "envcheck.label.workbench": ("workbench package", "工作台包"),
    "envcheck.label.virtual_env": ("VIRTUAL_ENV", "VIRTUAL_ENV"),
    "envcheck.label.conda_prefix": ("CONDA_PREFIX", "CONDA_PREFIX"),
    "envcheck.label.workbench_script": ("paddle-workbench on PATH", "PATH 中的 paddle-workbench"),
    "envcheck.label.paddle_origin": ("paddle found at", "paddle 位置"),
    "envcheck.label.paddle_file": ("paddle imported from", "paddle 导入自"),
    "envcheck.label.version": ("version", "版本"),
    "envcheck.label.import_seconds": ("import time (s)", "导入耗时（秒）"),
    "envcheck.label.commit": ("commit", "commit"),
    "envcheck.label.cuda": ("CUDA", "CUDA"),
    "envcheck.label.cudnn": ("cuDNN", "cuDNN"),
    "envcheck.label.nccl": ("NCCL", "NCCL"),
    "envcheck.label.tensorrt": ("TensorRT", "TensorRT"),
    "envcheck.label.xpu": ("XPU", "XPU"),
    "envcheck.label.rocm": ("ROCm", "ROCm"),
    "envcheck.label.cuda_archs": ("CUDA archs", "CUDA 架构"),
    "envcheck.label.mkl": ("MKL", "MKL"),
    "envcheck.label.onednn": ("oneDNN", "oneDNN"),
    "envcheck.label.avx_build": ("built with AVX", "以 AVX 编译"),
    "envcheck.label.cpu_avx": ("CPU has AVX", "CPU 支持 AVX"),
    "envcheck.label.cpu_avx512": ("CPU has AVX-512", "CPU 支持 AVX-512"),
    "envcheck.label.distributed": ("distributed", "分布式"),
    "envcheck.label.cinn": ("CINN", "CINN"),
    "envcheck.label.full_version": ("version", "版本"),
    "envcheck.label.cuda_version": ("CUDA", "CUDA"),
    "envcheck.label.cudnn_version": ("cuDNN", "cuDNN"),
    "envcheck.label.nccl_version": ("NCCL", "NCCL"),
    "envcheck.label.hip_version": ("ROCm", "ROCm"),
    "envcheck.label.xpu_xre_version": ("XPU", "XPU"),
    "envcheck.label.tensorrt_version": ("TensorRT", "TensorRT"),
    "envcheck.label.with_mkl": ("MKL", "MKL"),
    "envcheck.label.with_pip_cuda_libraries": ("CUDA libraries from pip", "CUDA 库来自 pip"),
    "envcheck.label.compiled_cuda_archs": ("CUDA archs", "CUDA 架构"),
    "envcheck.label.numpy_installed": ("numpy installed", "已安装的 numpy"),
    "envcheck.label.numpy_imported": ("numpy imported by paddle", "paddle 导入的 numpy"),
    "envcheck.label.driver_source": ("source", "来源"),
    "envcheck.label.driver_version": ("driver", "驱动"),
    "envcheck.label.driver_cuda": ("driver CUDA", "驱动 CUDA"),
    "envcheck.label.wheel_cuda": ("wheel CUDA", "安装包 CUDA"),
    "envcheck.label.device_nodes": ("device nodes", "设备节点"),
    "envcheck.label.cuda_visible_devices": ("CUDA_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"),
    "envcheck.label.cuda_device_order": ("CUDA_DEVICE_ORDER", "CUDA_DEVICE_ORDER"),
    "envcheck.label.paddle_gpu_count": ("GPUs seen by Paddle", "Paddle 可见的 GPU 数"),
    "envcheck.label.os": ("OS", "操作系统"),
    "envcheck.label.kernel": ("kernel", "内核"),
    "envcheck.label.libc": ("libc", "libc"),
    "envcheck.label.cpu_model": ("CPU", "CPU"),
    "envcheck.label.cpus": ("CPUs (logical / usable)", "CPU 数（逻辑 / 可用）"),
    "envcheck.label.cpu_flags": ("CPU flags", "CPU 指令集"),
    "envcheck.label.memory": ("memory (free / total)", "内存（可用 / 总计）"),
    "envcheck.label.shm": ("/dev/shm (free / total)", "/dev/shm（可用 / 总计）"),
    "envcheck.label.workspace": ("workspace", "工作区"),
    "envcheck.label.measured_at": ("measured at", "测量位置"),
    "envcheck.label.disk": ("disk (free / total)", "磁盘（可用 / 总计）"),
    # ------------------------------------------------------------------ reports
    "envcheck.col.status": ("Status", "状态"),
    "envcheck.col.check": ("Check", "检查项"),
    "envcheck.col.summary": ("Result", "结果"),
    "envcheck.report.summary": (
        "{passed} passed, {warned} warnings, {failed} failed, {skipped} skipped in {seconds} s.",
        "通过 {passed} 项，警告 {warned} 项，失败 {failed} 项，跳过 {skipped} 项，用时 {seconds} 秒。",
    ),
    "envcheck.report.fixes": ("How to fix:", "修复方法："),
    "envcheck.report.no_cuda": ("{kind} build, no CUDA", "{kind} 版本，无 CUDA"),
    "envcheck.report.not_importable": ("(does not import)", "（无法导入）"),
    "envcheck.md.title": ("Paddle Workbench environment check", "Paddle 工作台环境检查"),
    "envcheck.md.generated": (
        "Generated by `paddle-workbench check --markdown` at {when}.",
        "由 `paddle-workbench check --markdown` 于 {when} 生成。",
    ),
    "envcheck.md.fixes": ("Problems and fixes", "问题与修复方法"),
    "envcheck.md.environment": ("Environment", "环境信息"),
    "envcheck.md.paddle": ("Paddle version", "Paddle 版本"),
    "envcheck.md.distributions": ("Distributions", "发行包"),
    "envcheck.md.cuda_build": ("Built with CUDA / cuDNN / NCCL", "编译时 CUDA / cuDNN / NCCL"),
    "envcheck.md.cuda_archs": ("CUDA archs", "CUDA 架构"),
    "envcheck.md.driver": ("NVIDIA driver", "NVIDIA 驱动"),
    "envcheck.md.gpus": ("GPUs", "GPU"),
    "envcheck.md.python": ("Python", "Python"),
    "envcheck.md.venv": ("Environment", "虚拟环境"),
    "envcheck.md.numpy": ("numpy", "numpy"),
    "envcheck.md.os": ("OS", "操作系统"),
    "envcheck.md.cpu": ("CPU", "CPU"),
    "envcheck.md.memory": ("Memory", "内存"),
    "envcheck.md.shm": ("/dev/shm", "/dev/shm"),
    "envcheck.md.variables": ("Variables", "环境变量"),
    # ------------------------------------------------------------------ env screen
    "envscreen.key.rerun": ("re-run check", "重新检查此项"),
    "envscreen.key.rerun_all": ("re-run all", "全部重新检查"),
    "envscreen.key.export": ("export report", "导出报告"),
    "envscreen.key.copy": ("copy report", "复制报告"),
    "envscreen.idle": (
        "Environment check: press shift+r to run every check.",
        "环境检查：按 shift+r 运行全部检查。",
    ),
    "envscreen.select": (
        "Select a check to see its evidence and fix.",
        "选择一个检查项以查看依据与修复方法。",
    ),
    "envscreen.running": (
        "Checking… {done}/{total} done; keys keep working.",
        "正在检查…已完成 {done}/{total}；按键仍可使用。",
    ),
    "envscreen.busy": (
        "A check is running; press shift+r to restart all.",
        "检查正在运行；按 shift+r 可全部重新开始。",
    ),
    "envscreen.copied": ("Markdown report copied to the clipboard.", "Markdown 报告已复制到剪贴板。"),
    "envscreen.exported": ("Report written to {path}", "报告已写入 {path}"),
    "envscreen.pending": ("Not finished yet: its probes are still running.", "尚未完成：相关探针仍在运行。"),
    "envscreen.pending_short": ("waiting", "等待"),
    "envscreen.running_short": ("running", "运行中"),
    "envscreen.details": ("Details", "详细信息"),
    "envscreen.facts": ("Facts from probe {probe}", "探针「{probe}」收集的信息"),
    # The probes' names as the env screen shows them (``DEFAULT_PROBES``).
    "envcheck.probe.interpreter": ("interpreter", "解释器"),
    "envcheck.probe.environment": ("environment", "环境变量"),
    "envcheck.probe.system": ("system", "系统"),
    "envcheck.probe.paddle": ("paddle", "Paddle"),
    "envcheck.probe.tensor_op": ("tensor_op", "张量运算"),
    "envcheck.probe.run_check.static": ("run_check.static", "run_check（静态图）"),
    "envcheck.probe.run_check.dygraph": ("run_check.dygraph", "run_check（动态图）"),
    "envcheck.probe.run_check.parallel": ("run_check.parallel", "run_check（并行）"),
    "envcheck.probe.driver": ("driver", "驱动"),
    "envcheck.probe.libraries": ("libraries", "库"),
    "envscreen.system.waiting": ("System: measuring…", "系统：正在测量…"),
    "envscreen.system.cpu": ("CPU {percent}% of {count}", "CPU {percent}%（共 {count} 核）"),
    "envscreen.system.ram": ("RAM {used}/{total} GiB", "内存 {used}/{total} GiB"),
    "envscreen.system.gpu": (
        "GPU{index} {name} {used}/{total} GiB {util}%",
        "GPU{index} {name} {used}/{total} GiB {util}%",
    ),
    "envscreen.system.no_gpu": ("no GPU", "无 GPU"),
    "envscreen.system.temp": ("{temp}°C", "{temp}°C"),
    "envscreen.system.power": ("{draw} W", "{draw} W"),
    "envscreen.system.power_limit": ("{draw}/{limit} W", "{draw}/{limit} W"),
    "envscreen.system.more": ("+{count} more", "另有 {count} 项"),
}
