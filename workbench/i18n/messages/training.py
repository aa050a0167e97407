"""Training engine, demo datasets and the ``train`` command."""

MESSAGES: dict[str, tuple[str, str]] = {
    # -- tasks (workbench/training/tasks/: each spec's title_key) ---------------------------------
    "training.task.image_classification": (
        "image classification: a small CNN on 32x32 images (PaddleClas layout)",
        "图像分类：32x32 图像上的小型 CNN（PaddleClas 数据格式）",
    ),
    "training.task.text_recognition": (
        "text recognition: a small CRNN trained with CTC (PaddleOCR layout)",
        "文字识别：用 CTC 训练的小型 CRNN（PaddleOCR 数据格式）",
    ),
    "training.task.custom": (
        "your own model: `entry: package.module:build` returns TrainParts",
        "自定义模型：`entry: 包.模块:build` 返回 TrainParts",
    ),
    # -- track.init in a child the workbench launched (workbench.training.track) ------------------
    "training.track.child_joined": (
        "track.init: this script joins the workbench's run {run}; {notes}",
        "track.init：此脚本加入工作台的运行 {run}；{notes}",
    ),
    "training.track.child_name": (
        "the run keeps its name (not {name})",
        "运行保留原名称（不使用 {name}）",
    ),
    "training.track.child_config_kept": (
        "the run's config keeps its own {keys}",
        "运行配置保留原有的 {keys}",
    ),
    "training.track.child_config_unsaved": (
        "config not recorded ({error})",
        "未记录配置（{error}）",
    ),
    "training.track.child_workspace": (
        "workspace {workspace} not used",
        "不使用工作区 {workspace}",
    ),
    "training.track.child_system": (
        "system sampling stays as the workbench set it for the job",
        "系统采样保持工作台为该任务的设置",
    ),
    # -- dataset layouts (workbench.datasets.layouts) --------------------------------------------
    "training.data.missing_dir": ("dataset folder not found", "找不到数据集目录"),
    "training.data.missing_dir.hint": (
        "check data.dir (relative to the config file), or set data.demo: true to generate the demo data",
        "请检查 data.dir（相对于配置文件），或设置 data.demo: true 自动生成演示数据",
    ),
    "training.data.missing_file": ("file not found", "文件不存在"),
    "training.data.missing_file.hint": (
        "every layout needs this file next to the images folder",
        "该数据格式要求此文件与图片目录放在一起",
    ),
    "training.data.unreadable": ("cannot read the file: {error}", "无法读取文件：{error}"),
    "training.data.unreadable.hint": (
        "check the file's permissions, and that it is a regular file (not a folder or a pipe)",
        "请检查文件权限，并确认它是普通文件（不是目录或管道）",
    ),
    "training.data.empty": ("the file lists nothing", "文件中没有任何条目"),
    "training.data.empty.hint": (
        "write one line per entry, or point data.dir at the folder that has them",
        "每个条目写一行，或把 data.dir 指向含有这些条目的目录",
    ),
    "training.data.bad_label_line": (
        "expected '<id> <name>', got '{text}'",
        "应为 '<id> <name>'，实际为 '{text}'",
    ),
    "training.data.bad_label_line.hint": (
        "e.g. '0 cat' — an integer id from 0, one space, the name",
        "例如 '0 cat'：从 0 开始的整数 id、一个空格、类别名",
    ),
    "training.data.duplicate_id": (
        "class id {id} appears twice (first on line {line})",
        "类别 id {id} 出现了两次（首次在第 {line} 行）",
    ),
    "training.data.duplicate_id.hint": (
        "give each class its own id, 0 to N-1 in order, and keep one line per class",
        "每个类别一个 id，按顺序从 0 到 N-1，每个类别只保留一行",
    ),
    "training.data.id_gap": (
        "class ids must be 0..{last} without gaps",
        "类别 id 必须是 0..{last} 且连续",
    ),
    "training.data.id_gap.hint": ("renumber label.txt from 0", "请从 0 开始重新编号 label.txt"),
    "training.data.bad_cls_line": (
        "expected '<relative/path> <int label>', got '{text}'",
        "应为 '<相对路径> <整数标签>'，实际为 '{text}'",
    ),
    "training.data.bad_cls_line.hint": (
        "exactly two fields separated by one space (PaddleX rejects tabs and double spaces)",
        "恰好两个字段，用一个空格分隔（PaddleX 不接受制表符或连续空格）",
    ),
    "training.data.bad_label": ("label '{label}' is not an integer", "标签 '{label}' 不是整数"),
    "training.data.bad_label.hint": (
        "write the class id from label.txt in ASCII digits (0, 1, 2 …)",
        "请用 ASCII 数字写出 label.txt 中的类别 id（0、1、2 …）",
    ),
    "training.data.label_range": (
        "label {label} is outside 0..{last}",
        "标签 {label} 超出范围 0..{last}",
    ),
    "training.data.label_range.hint": (
        "add the class to label.txt or fix the label",
        "请在 label.txt 中添加该类别，或修正标签",
    ),
    "training.data.missing_image": ("image '{path}' does not exist", "图片 '{path}' 不存在"),
    "training.data.missing_image.hint": ("paths are relative to the dataset folder", "路径相对于数据集目录"),
    "training.data.not_single_char": (
        "a dict.txt line holds one character, got '{text}'",
        "dict.txt 每行只能有一个字符，实际为 '{text}'",
    ),
    "training.data.not_single_char.hint": (
        "put each character on a line of its own",
        "每个字符单独占一行",
    ),
    "training.data.duplicate_char": (
        "character '{char}' already on line {line}",
        "字符 '{char}' 已在第 {line} 行出现",
    ),
    "training.data.duplicate_char.hint": (
        "drop the repeated line: a character listed twice gets two class ids",
        "删除重复行：同一字符出现两次会得到两个类别 id",
    ),
    "training.data.bad_rec_line": (
        "expected '<relative/path><TAB><text>', got '{text}'",
        "应为 '<相对路径><制表符><文本>'，实际为 '{text}'",
    ),
    "training.data.bad_rec_line.hint": (
        "separate the path and the text with one tab",
        "路径与文本之间用一个制表符分隔",
    ),
    "training.data.unknown_char": (
        "characters not in dict.txt: {chars}",
        "以下字符不在 dict.txt 中：{chars}",
    ),
    "training.data.unknown_char.hint": (
        "add them to dict.txt or drop the sample",
        "请把它们加入 dict.txt，或删除该样本",
    ),
    # -- planning a run (workbench.training.plan) -------------------------------------------------
    "training.demo.generating": (
        "generating the demo dataset in {path} ({train} training / {val} validation images, deterministic)",
        "正在 {path} 生成演示数据集（训练 {train} 张 / 验证 {val} 张，结果确定可复现）",
    ),
    "training.demo.failed": (
        "cannot create the demo dataset in {path}: {error} — set data.dir (relative to the config file) "
        "to a folder you can write to",
        "无法在 {path} 生成演示数据集：{error}——请把 data.dir（相对于配置文件）设为可写的目录",
    ),
    "training.data.bad_dir": (
        "data.dir cannot be resolved: {error} — write the path out in full",
        "无法解析 data.dir：{error}——请写出完整路径",
    ),
    "training.workspace.not_dir": (
        "cannot create runs in the workspace {workspace}: {path} is not a folder — choose another "
        "--workspace (or PADDLE_WORKBENCH_WORKSPACE)",
        "无法在工作区 {workspace} 中创建运行：{path} 不是目录——请换一个 --workspace（或设置 "
        "PADDLE_WORKBENCH_WORKSPACE）",
    ),
    "training.workspace.not_writable": (
        "cannot create runs in the workspace {workspace}: {path} is not writable — choose another "
        "--workspace or fix its permissions",
        "无法在工作区 {workspace} 中创建运行：{path} 不可写——请换一个 --workspace 或修改其权限",
    ),
    "training.workspace.create_failed": (
        "cannot create the run folder in the workspace {workspace}: {error} — choose a writable "
        "--workspace with free space",
        "无法在工作区 {workspace} 中创建运行目录：{error}——请选择可写且有剩余空间的 --workspace",
    ),
    "training.paddle.not_importable": (
        "Paddle is not importable here ({error}) — install it with `pip install paddlepaddle=={version}`, "
        "or run `paddle-workbench check` to see what is wrong",
        "当前环境无法导入 Paddle（{error}）——请用 `pip install paddlepaddle=={version}` 安装，"
        "或运行 `paddle-workbench check` 查看具体问题",
    ),
    "training.faults.bad": ("bad fault injection spec: {error}", "故障注入参数有误：{error}"),
    "training.faults.active": ("fault injection active: {faults}", "已启用故障注入：{faults}"),
    "training.faults.out_of_range": (
        "fault injection {faults} would never fire: the step must be between 1 and train.steps ({steps})",
        "故障注入 {faults} 永远不会触发：步数必须在 1 到 train.steps（{steps}）之间",
    ),
    "training.resume.empty": (
        "--resume needs a value: latest, a run id or prefix, a run folder or a checkpoint folder",
        "--resume 需要一个值：latest、运行 ID 或其前缀、运行目录或检查点目录",
    ),
    "training.resume.skipped": (
        "warning: skipped checkpoint {path}, it does not verify: {problems}",
        "警告：已跳过检查点 {path}，校验未通过：{problems}",
    ),
    "training.resume.no_config": (
        "warning: the run.yaml of {run} is missing or unreadable, so its settings cannot be compared: resuming its checkpoint with the settings of {config}",
        "警告：{run} 的 run.yaml 缺失或无法读取，无法比较设置：将按 {config} 的设置从其检查点续训",
    ),
    "training.resume.corrupt": (
        "checkpoint {path} does not match its manifest",
        "检查点 {path} 与其清单不符",
    ),
    "training.resume.no_latest": (
        "no run named '{name}' with a verified checkpoint in {workspace}",
        "{workspace} 中没有名为 '{name}' 且检查点校验通过的运行",
    ),
    "training.resume.no_checkpoint": (
        "run {run} has no verified checkpoint (nor has any run it was resumed from)",
        "运行 {run} 没有校验通过的检查点（其续训来源也没有）",
    ),
    "training.resume.nothing_left": (
        "the checkpoint is at step {step} and train.steps is {steps}: nothing left to train (raise it, e.g. -o train.steps=...)",
        "检查点已在第 {step} 步，而 train.steps 为 {steps}：没有剩余步数（请调大，例如 -o train.steps=...）",
    ),
    "training.resume.nothing_left_schedule": (
        "the checkpoint is at step {step} and train.steps is {steps}: the run is complete and its learning-rate "
        "schedule has ended — to train longer, start a new run with a longer train.steps",
        "检查点已在第 {step} 步，而 train.steps 为 {steps}：该运行已完成，其学习率调度也已结束——"
        "如需继续训练，请用更大的 train.steps 开始新的运行",
    ),
    "training.resume.steps_changed": (
        "train.steps is {new} but run {run} was trained with {old}, and its {schedule} learning-rate schedule "
        "spans train.steps: resuming would rebuild it and change the learning rate from step {step} on — "
        "resume with -o train.steps={old}, or start a new run for the longer schedule",
        "train.steps 为 {new}，但运行 {run} 训练时为 {old}，其 {schedule} 学习率调度覆盖整个 train.steps："
        "续训会重建调度，从第 {step} 步起改变学习率——请用 -o train.steps={old} 续训，或为更长的调度开始新的运行",
    ),
    "training.resume.steps_changed_custom": (
        "warning: train.steps changed from {old} to {new}; if your entry's learning-rate schedule uses "
        "train.steps, the learning rate changes from step {step} on",
        "警告：train.steps 从 {old} 改为 {new}；如果入口的学习率调度用到 train.steps，学习率将从第 {step} 步起改变",
    ),
    "training.resume.finishing": (
        "run {run} stopped after its last checkpoint (step {step}) without finishing: running its final "
        "evaluation and export now",
        "运行 {run} 在最后一个检查点（第 {step} 步）之后中断、未完成：现在补做最终评估与导出",
    ),
    "training.resume.differs": (
        "warning: these settings differ from the run being resumed, so it will not match an uninterrupted run: {keys}",
        "警告：以下设置与被续训的运行不同，结果将与不中断的训练不一致：{keys}",
    ),
    "training.entry.not_found": (
        "entry '{entry}': module '{module}' not found (looked in {folder} and the current folder)",
        "入口 '{entry}'：找不到模块 '{module}'（已在 {folder} 和当前目录中查找）",
    ),
    "training.entry.import_failed": (
        "{where}: entry '{entry}': importing '{module}' failed: {error}",
        "{where}：入口 '{entry}'：导入 '{module}' 失败：{error}",
    ),
    # -- the training loop (workbench.training.loop) ----------------------------------------------
    "training.fault.raised": ("injected fault at step {step} (raise)", "第 {step} 步注入的故障（raise）"),
    "training.alert.nonfinite": (
        "loss is {value} at step {step} ({count} non-finite {count:step|steps} in a row; policy: {policy})",
        "第 {step} 步损失为 {value}（已连续 {count} 步非有限值；策略：{policy}）",
    ),
    "training.nonfinite.stopped": (
        "stopped at step {step}: the loss was NaN/Inf for {count} {count:step|steps} in a row (alerts.nonfinite: {policy}).",
        "在第 {step} 步停止：损失已连续 {count} 步为 NaN/Inf（alerts.nonfinite：{policy}）。",
    ),
    "training.nonfinite.no_good_checkpoint": (
        "No checkpoint from before the first non-finite step exists.",
        "不存在首次出现非有限值之前的检查点。",
    ),
    "training.nonfinite.good_checkpoint": (
        "The last good checkpoint is step {step}: {path}",
        "最后一个正常的检查点是第 {step} 步：{path}",
    ),
    "training.nonfinite.exported_good": (
        "Exported the last good checkpoint (step {step}) to {path}.",
        "已导出最后一个正常的检查点（第 {step} 步）到 {path}。",
    ),
    "training.alert.hang": (
        "no training step finished for {seconds} s (threshold {threshold} s); step {step} may be stuck",
        "已有 {seconds} 秒没有完成任何训练步（阈值 {threshold} 秒）；第 {step} 步可能卡住了",
    ),
    "training.hang.stack_title": (
        "Python stack of the training thread (innermost call last):",
        "训练线程的 Python 调用栈（最内层调用在最后）：",
    ),
    "training.export.failed": (
        "export with paddle.jit.save failed: {error}",
        "使用 paddle.jit.save 导出失败：{error}",
    ),
    # -- the train command (workbench.cli.train) --------------------------------------------------
    "training.cli.config": (
        "config: {file} (task {task}, {steps} {steps:step|steps})",
        "配置：{file}（任务 {task}，共 {steps} 步）",
    ),
    "training.cli.resuming": ("resuming from {run} at step {step}", "从 {run} 的第 {step} 步继续训练"),
    "training.cli.loading_paddle": ("loading Paddle…", "正在加载 Paddle…"),
    "training.cli.progress_label": ("training", "训练中"),
    "training.cli.status": (
        "loss {loss}  lr {lr}  {speed} samples/s",
        "损失 {loss}  学习率 {lr}  {speed} 样本/秒",
    ),
    "training.cli.step": ("step {step}/{total}", "第 {step}/{total} 步"),
    "training.cli.eval": ("eval at step {step}: {metrics}", "第 {step} 步评估：{metrics}"),
    "training.cli.checkpoint": (
        "checkpoint saved at step {step}: {path}",
        "第 {step} 步检查点已保存：{path}",
    ),
    "training.cli.alert": ("ALERT [{kind}] {message}", "警报 [{kind}] {message}"),
    "training.cli.hang_file": (
        "the training thread's stack is in {path}; press Ctrl-C to stop the run",
        "训练线程的调用栈已写入 {path}；按 Ctrl-C 可停止训练",
    ),
    "training.cli.stopping": (
        "stopping after the current step and saving a checkpoint (Ctrl-C again to abort now)…",
        "将在当前步结束后停止并保存检查点（再按一次 Ctrl-C 立即中止）…",
    ),
    "training.cli.stopping_signal": (
        "{signal} received: stopping after the current step and saving a checkpoint…",
        "收到 {signal}：将在当前步结束后停止并保存检查点…",
    ),
    "training.cli.finished": (
        "finished in {seconds} s at step {step}: {metrics}",
        "训练完成，用时 {seconds} 秒，共 {step} 步：{metrics}",
    ),
    "training.cli.exported": ("exported model: {path}", "已导出模型：{path}"),
    "training.cli.failed": ("failed at step {step}: {error}", "在第 {step} 步失败：{error}"),
    "training.cli.logs": ("full log: {path}", "完整日志：{path}"),
    "training.cli.cancelled": ("stopped at step {step}", "已在第 {step} 步停止"),
    "training.cli.aborted": (
        "aborted at step {step}: the run folder keeps every checkpoint committed before",
        "已在第 {step} 步中止：运行目录保留此前已提交的所有检查点",
    ),
    "training.cli.start_failed": ("cannot start the run: {error}", "无法启动训练：{error}"),
    "training.cli.resume_hint": (
        "continue with: paddle-workbench train {config} --resume {run}",
        "继续训练：paddle-workbench train {config} --resume {run}",
    ),
    "training.device.unknown": (
        "unknown device {device!r}: use auto, cpu, gpu or gpu:N",
        "未知设备 {device!r}：请使用 auto、cpu、gpu 或 gpu:N",
    ),
    "training.device.no_gpu": (
        "train.device is {device!r} but this Paddle build sees no GPU (use auto or cpu; `paddle-workbench check` says why)",
        "train.device 为 {device!r}，但当前 Paddle 看不到 GPU（请改用 auto 或 cpu；`paddle-workbench check` 会说明原因）",
    ),
}
