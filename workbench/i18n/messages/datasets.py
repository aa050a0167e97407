"""Dataset linter messages: one problem and its fix per code, and the ``dataset`` command's words."""

MESSAGES: dict[str, tuple[str, str]] = {
    # line shapes (workbench.datasets.layouts)
    "dataset.problem.trailing_whitespace": (
        "whitespace after the last field: '{text}'",
        "最后一个字段后有空白：'{text}'",
    ),
    "dataset.problem.trailing_whitespace.hint": (
        "remove the trailing spaces or tabs (--fix does it)",
        "删除行尾的空格或制表符（--fix 可自动修复）",
    ),
    "dataset.problem.separator": ("wrong separator: '{text}'", "分隔符错误：'{text}'"),
    "dataset.problem.separator.hint": (
        "classification lists use exactly one space, recognition and detection lists one tab (--fix does it)",
        "分类列表用且仅用一个空格分隔，识别和检测列表用一个制表符（--fix 可自动修复）",
    ),
    "dataset.problem.path_space": ("the image path contains a space: '{text}'", "图片路径含空格：'{text}'"),
    "dataset.problem.path_space.hint": (
        "rename the file without spaces; PaddleX splits the line at every space",
        "重命名文件去掉空格；PaddleX 会在每个空格处切分该行",
    ),
    "dataset.problem.empty_label": ("the text label is empty: '{text}'", "文本标签为空：'{text}'"),
    "dataset.problem.empty_label.hint": (
        "write the text the image shows after the tab, or drop the line",
        "在制表符后写出图片中的文字，或删除该行",
    ),
    "dataset.problem.det_json": ("the label is not valid JSON: {text}", "标注不是合法的 JSON：{text}"),
    "dataset.problem.det_json.hint": (
        'write [{{"transcription": "...", "points": [[x, y], [x, y], [x, y], [x, y]]}}]',
        '应写为 [{{"transcription": "...", "points": [[x, y], [x, y], [x, y], [x, y]]}}]',
    ),
    "dataset.problem.det_points": (
        "a polygon does not have 4 [x, y] points ({text})",
        "有多边形不是 4 个 [x, y] 点（{text}）",
    ),
    "dataset.problem.det_points.hint": (
        "each box needs exactly four corner points, clockwise from the top left",
        "每个框需要恰好四个角点，从左上角起顺时针",
    ),
    # bytes
    "dataset.problem.bom": ("the file starts with a byte order mark (BOM)", "文件以字节顺序标记（BOM）开头"),
    "dataset.problem.bom.hint": (
        "save as UTF-8 without BOM (--fix does it)",
        "另存为无 BOM 的 UTF-8（--fix 可自动修复）",
    ),
    "dataset.problem.crlf": (
        "{count} lines end with CRLF (Windows line ends); this is the first",
        "有 {count} 行以 CRLF（Windows 换行）结尾；此为第一行",
    ),
    "dataset.problem.crlf.hint": (
        "convert to LF line ends (--fix does it)",
        "转换为 LF 换行（--fix 可自动修复）",
    ),
    "dataset.problem.not_utf8": (
        "bytes that are not UTF-8 (at byte {offset} of the line)",
        "含有非 UTF-8 字节（该行第 {offset} 个字节处）",
    ),
    "dataset.problem.not_utf8.hint": (
        "re-save the file as UTF-8 (e.g. iconv -f GBK -t UTF-8)",
        "将文件另存为 UTF-8（例如 iconv -f GBK -t UTF-8）",
    ),
    "dataset.problem.trailing_whitespace_text": (
        "the text ends with whitespace",
        "文本以空白结尾",
    ),
    "dataset.problem.trailing_whitespace_text.hint": (
        "the whitespace becomes part of the label; remove it unless the image shows it",
        "空白会成为标签的一部分；除非图片中确有空白，请删除",
    ),
    # lines and paths
    "dataset.problem.duplicate_line": ("the same line as line {first}", "与第 {first} 行重复"),
    "dataset.problem.duplicate_line.hint": (
        "drop the repeated line (--fix does it)",
        "删除重复行（--fix 可自动修复）",
    ),
    "dataset.problem.absolute_path": ("absolute image path '{path}'", "图片路径 '{path}' 是绝对路径"),
    "dataset.problem.absolute_path.hint": (
        "write paths relative to the dataset folder",
        "请写相对于数据集目录的路径",
    ),
    "dataset.problem.backslash": ("backslash in image path '{path}'", "图片路径 '{path}' 含反斜杠"),
    "dataset.problem.backslash.hint": (
        "use forward slashes (--fix does it)",
        "请使用正斜杠（--fix 可自动修复）",
    ),
    "dataset.problem.path_space_rel": ("space in image path '{path}'", "图片路径 '{path}' 含空格"),
    "dataset.problem.path_space_rel.hint": ("rename the file without spaces", "重命名文件去掉空格"),
    "dataset.problem.train_val_overlap": (
        "image '{path}' is also in {other}",
        "图片 '{path}' 同时出现在 {other}",
    ),
    "dataset.problem.train_val_overlap.hint": (
        "keep each image in one split, or the validation score flatters the model",
        "每张图片只放在一个划分中，否则验证分数会虚高",
    ),
    "dataset.problem.missing_image": ("image '{path}' does not exist", "图片 '{path}' 不存在"),
    "dataset.problem.missing_image.hint": (
        "paths are relative to the dataset folder",
        "路径相对于数据集目录",
    ),
    "dataset.problem.empty_image": ("image '{path}' is an empty file", "图片 '{path}' 是空文件"),
    "dataset.problem.empty_image.hint": (
        "copy the image again, or drop the line",
        "重新拷贝该图片，或删除该行",
    ),
    "dataset.problem.bad_image": (
        "image '{path}' cannot be decoded: {error}",
        "图片 '{path}' 无法解码：{error}",
    ),
    "dataset.problem.bad_image.hint": (
        "the file is truncated or not an image; copy it again or drop the line",
        "文件被截断或不是图片；请重新拷贝或删除该行",
    ),
    "dataset.problem.det_degenerate": (
        "box {box} has no area (its points coincide or lie on a line)",
        "第 {box} 个框面积为零（各点重合或共线）",
    ),
    "dataset.problem.det_degenerate.hint": ("redraw the box or drop it", "重新标注该框或删除"),
    "dataset.problem.det_outside": (
        "box {box} reaches outside the {width}x{height} image",
        "第 {box} 个框超出了 {width}x{height} 的图片",
    ),
    "dataset.problem.det_outside.hint": (
        "clip the points to the image (0 <= x <= width, 0 <= y <= height)",
        "把各点裁剪到图片范围内（0 <= x <= 宽，0 <= y <= 高）",
    ),
    # warnings
    "dataset.problem.tiny_split": (
        "only {count} samples (fewer than {minimum})",
        "只有 {count} 个样本（少于 {minimum}）",
    ),
    "dataset.problem.tiny_split.hint": (
        "fine for a first try; collect more before trusting the scores",
        "用于初次试跑没问题；在信任评估分数之前请收集更多数据",
    ),
    "dataset.problem.unused_class": (
        "class '{name}' has no training samples",
        "类别 '{name}' 没有训练样本",
    ),
    "dataset.problem.unused_class.hint": (
        "add samples of it or remove it from label.txt (renumbering the others)",
        "为其添加样本，或从 label.txt 删除（并重新编号其余类别）",
    ),
    "dataset.problem.class_imbalance": (
        "classes are imbalanced: most {most}, fewest {fewest}",
        "类别不均衡：最多 {most}，最少 {fewest}",
    ),
    "dataset.problem.class_imbalance.hint": (
        "collect more of the rare classes, or weight / resample them in training",
        "为少数类别收集更多样本，或在训练中加权/重采样",
    ),
    # the command
    "cli.dataset.check.help": (
        "Check a dataset folder (cls, rec, det): every problem in one pass, as file:line with its fix.",
        "检查数据集目录（cls、rec、det）：一次列出所有问题，格式为 文件:行 及修复方法。",
    ),
    "cli.dataset.opt.format": (
        "Dataset format; auto guesses from the files and says what it chose.",
        "数据集格式；auto 根据文件推断并说明所选格式。",
    ),
    "cli.dataset.opt.fix": (
        "Write a copy with the safe fixes (separators, CRLF/BOM, backslashes, duplicates) to OUT.",
        "将应用安全修复（分隔符、CRLF/BOM、反斜杠、重复行）后的副本写入 OUT。",
    ),
    "cli.dataset.opt.sample": (
        "Write a small stratified split of N training samples to OUT.",
        "将含 N 个训练样本的分层小样本写入 OUT。",
    ),
    "cli.dataset.opt.output": (
        "Folder for check_dataset_result.json (default: the workspace's dataset_checks/<name>).",
        "check_dataset_result.json 的输出目录（默认：工作区的 dataset_checks/<名称>）。",
    ),
    "cli.dataset.opt.workers": (
        "Image decoding processes (default: every CPU).",
        "图片解码进程数（默认：全部 CPU）。",
    ),
    "cli.dataset.guessed": ("format: {format} (guessed from the files)", "格式：{format}（根据文件推断）"),
    "cli.dataset.group": ("{code} ×{count}", "{code} ×{count}"),
    "cli.dataset.more": ("… and {count} more", "……另有 {count} 处"),
    "cli.dataset.errors": ("Errors", "错误"),
    "cli.dataset.warnings": ("Warnings", "警告"),
    "cli.dataset.histogram": ("Samples per class", "各类别样本数"),
    "cli.dataset.summary_ok": (
        "ok: {samples} samples checked, {images} images decoded in {seconds} s; {warnings} warnings",
        "通过：检查了 {samples} 个样本，{seconds} 秒内解码 {images} 张图片；{warnings} 条警告",
    ),
    "cli.dataset.summary_fail": (
        "{errors} errors in {samples} samples ({images} images decoded in {seconds} s); {warnings} warnings",
        "{samples} 个样本中有 {errors} 处错误（{seconds} 秒内解码 {images} 张图片）；{warnings} 条警告",
    ),
    "cli.dataset.result": ("PaddleX result: {path}", "PaddleX 校验结果：{path}"),
    "cli.dataset.fixed": ("fixed copy written to {path}: {fixes}", "已将修复后的副本写入 {path}：{fixes}"),
    "cli.dataset.sampled": (
        "sample written to {path}: {train} train, {val} val",
        "小样本已写入 {path}：训练 {train}，验证 {val}",
    ),
    "cli.dataset.out_exists": (
        "{path} exists and is not empty (or is inside the dataset); choose a new folder",
        "{path} 已存在且非空（或位于数据集内）；请换一个新目录",
    ),
    "cli.dataset.progress.lines": ("reading lists", "读取列表"),
    "cli.dataset.progress.images": ("decoding images", "解码图片"),
    "dataset.panel.title": ("Dataset {path} ({format})", "数据集 {path}（{format}）"),
    "dataset.panel.summary": (
        "{errors} errors, {warnings} warnings in {samples} samples",
        "{samples} 个样本中有 {errors} 处错误、{warnings} 条警告",
    ),
    "dataset.panel.no_data": (
        "this run names no dataset folder (its task takes no data)",
        "该运行没有数据集目录（其任务不读取数据）",
    ),
    "ui.key.check_dataset": ("Dataset", "数据集"),
    "worker.dataset_check": ("checking the dataset", "检查数据集"),
}
