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
        "PaddleX and Paddle's readers keep the BOM as part of the first line (its id or path then fails); "
        "save as UTF-8 without BOM (--fix does it)",
        "PaddleX 与 Paddle 的读取器会把 BOM 当作第一行的一部分（该行的 id 或路径因此出错）；请另存为无 BOM "
        "的 UTF-8（--fix 可自动修复）",
    ),
    "dataset.problem.crlf": (
        "{count} {count:line ends|lines end} with CRLF (Windows line ends); this is the first",
        "有 {count} 行以 CRLF（Windows 换行）结尾；此为第一行",
    ),
    "dataset.problem.crlf.hint": (
        "PaddleX and Paddle's readers drop the CR, but a recognition label read by PaddleOCR keeps it; "
        "convert to LF line ends (--fix does it)",
        "PaddleX 与 Paddle 的读取器会去掉 CR，但 PaddleOCR 读取识别标签时会保留它；请转换为 LF 换行"
        "（--fix 可自动修复）",
    ),
    "dataset.problem.odd_char": (
        "the line holds a {char} at character {column}; Paddle does not split lines there",
        "该行第 {column} 个字符处有 {char}；Paddle 不会在此处分行",
    ),
    "dataset.problem.odd_char.hint": (
        "delete the invisible character (--fix does it), or split the line with a real line break if two "
        "entries were meant",
        "删除该不可见字符（--fix 可自动修复）；若本应是两条记录，请用真正的换行分开",
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
    "dataset.problem.conflicting_label": (
        "image '{path}' is also on line {first} with another label",
        "图片 '{path}' 也在第 {first} 行，但标签不同",
    ),
    "dataset.problem.conflicting_label.hint": (
        "keep the one right label for the image and drop the other line",
        "为该图片只保留正确的标签，删除另一行",
    ),
    "dataset.problem.absolute_path": ("absolute image path '{path}'", "图片路径 '{path}' 是绝对路径"),
    "dataset.problem.absolute_path.hint": (
        "PaddleX and Paddle's readers open it, but a copy of the dataset elsewhere does not find it; write "
        "it relative to the dataset folder (--fix does it for a file inside the folder)",
        "PaddleX 与 Paddle 的读取器能打开它，但把数据集复制到别处后就找不到了；请写相对于数据集目录的路径"
        "（文件在数据集目录内时 --fix 可自动修复）",
    ),
    "dataset.problem.backslash": ("backslash in image path '{path}'", "图片路径 '{path}' 含反斜杠"),
    "dataset.problem.backslash.hint": (
        "use forward slashes (--fix does it)",
        "请使用正斜杠（--fix 可自动修复）",
    ),
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
    # bounded input (refused: the check is incomplete, exit 2)
    "dataset.excerpt": ("{text}… ({size} bytes)", "{text}…（共 {size} 字节）"),
    "dataset.problem.file_too_large": (
        "the file is {size}, over the limit of {limit}; not read",
        "文件大小为 {size}，超过上限 {limit}；未读取",
    ),
    "dataset.problem.file_too_large.hint": (
        "a list holds one short line per image; check it is the right file, split the dataset, or raise "
        "the limit with --max-list-mb",
        "列表每张图片只占一短行；请确认文件无误、拆分数据集，或用 --max-list-mb 提高上限",
    ),
    "dataset.problem.line_too_long": (
        "the line is {size} bytes, over the limit of {limit}; not read: '{text}'",
        "该行有 {size} 字节，超过上限 {limit}；未读取：'{text}'",
    ),
    "dataset.problem.line_too_long.hint": (
        "a line is an image path and its label; a missing line break or a binary file makes one this long",
        "每行应为图片路径和标签；缺少换行或文件是二进制时才会这么长",
    ),
    "dataset.problem.nul_byte": (
        "the line has a NUL byte (at character {column}); not read",
        "该行含有 NUL 字节（第 {column} 个字符处）；未读取",
    ),
    "dataset.problem.nul_byte.hint": (
        "no file name holds a NUL byte: the file is binary or damaged; re-export the list as UTF-8 text",
        "文件名不可能含 NUL 字节：该文件是二进制或已损坏；请重新导出为 UTF-8 文本列表",
    ),
    "dataset.problem.image_too_large": (
        "image '{path}' is {size} pixels, over the limit of {limit}; not decoded",
        "图片 '{path}' 为 {size} 像素，超过上限 {limit}；未解码",
    ),
    "dataset.problem.image_too_large.hint": (
        "shrink the image (training resizes it to a few hundred pixels anyway), or drop the line; a few KB "
        "file this large is a decompression bomb",
        "缩小该图片（训练时反正会缩放到几百像素），或删除该行；体积只有几 KB 却这么大的文件是解压炸弹",
    ),
    "dataset.problem.outside_dataset": (
        "image '{path}' is outside the dataset folder ({target})",
        "图片 '{path}' 位于数据集目录之外（{target}）",
    ),
    "dataset.problem.outside_dataset.hint": (
        "move the image into the dataset folder: a copy or an archive of the folder does not carry it, and "
        "--sample leaves out paths with ../",
        "请把图片移入数据集目录：复制或打包该目录时不会带上它，--sample 也会跳过含 ../ 的路径",
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
    "dataset.problem.det_empty": ("the label lists no boxes ([])", "标注中没有任何框（[]）"),
    "dataset.problem.det_empty.hint": (
        "PaddleOCR skips such a sample in training (its DetLabelEncode returns nothing for it); label the "
        "text in the image, or drop the line",
        "PaddleOCR 训练时会跳过该样本（其 DetLabelEncode 对它不返回结果）；请标注图中文字，或删除该行",
    ),
    "dataset.problem.text_too_long": (
        "the text is {length} characters, over the max text length {limit}",
        "文本有 {length} 个字符，超过最大文本长度 {limit}",
    ),
    "dataset.problem.text_too_long.hint": (
        "PaddleOCR drops a sample whose text is longer than Global.max_text_length in training; raise it "
        "in the model's config (--max-text-length here), or split the image",
        "PaddleOCR 训练时会丢弃文本长于 Global.max_text_length 的样本；请在模型配置中调大该值（此处用 "
        "--max-text-length），或切分图片",
    ),
    "dataset.problem.tiny_image": (
        "image '{path}' is only {width}x{height} pixels",
        "图片 '{path}' 只有 {width}x{height} 像素",
    ),
    "dataset.problem.tiny_image.hint": (
        "an image under {minimum} pixels a side holds nothing to learn; check the export, or drop the line",
        "边长不足 {minimum} 像素的图片没有可学习的内容；请检查导出过程，或删除该行",
    ),
    "dataset.problem.grayscale_image": (
        "image '{path}' is grayscale ({mode}) while {color} of {total} images are color",
        "图片 '{path}' 是灰度图（{mode}），而 {total} 张图片中有 {color} 张是彩色",
    ),
    "dataset.problem.grayscale_image.hint": (
        "Paddle's loaders read it as three equal channels; if color matters, re-export it in color",
        "Paddle 的加载器会把它读成三个相同的通道；若颜色重要，请重新以彩色导出",
    ),
    # warnings
    "dataset.problem.tiny_split": (
        "only {count} {count:sample|samples} (fewer than {minimum})",
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
        "Check a dataset folder (cls, rec, det, coco): every problem in one pass, as file:line with its fix.",
        "检查数据集目录（cls、rec、det、coco）：一次列出所有问题，格式为 文件:行 及修复方法。",
    ),
    "cli.dataset.opt.format": (
        "Dataset format; auto guesses from the files and says what it chose.",
        "数据集格式；auto 根据文件推断并说明所选格式。",
    ),
    "cli.dataset.opt.fix": (
        "Write a copy with the safe fixes (separators, CRLF/BOM, backslashes, duplicates) to OUT, a new or "
        "empty folder outside the dataset.",
        "将应用安全修复（分隔符、CRLF/BOM、反斜杠、重复行）后的副本写入 OUT（数据集之外的新目录或空目录）。",
    ),
    "cli.dataset.opt.sample": (
        "Write a small stratified split of N training samples to OUT, a new or empty folder outside the dataset.",
        "将含 N 个训练样本的分层小样本写入 OUT（数据集之外的新目录或空目录）。",
    ),
    "cli.dataset.opt.output": (
        "Folder for check_dataset_result.json (default: the workspace's dataset_checks/<name>).",
        "check_dataset_result.json 的输出目录（默认：工作区的 dataset_checks/<名称>）。",
    ),
    "cli.dataset.opt.max_text_length": (
        "Recognition texts longer than this are warned of: PaddleOCR drops them in training (its "
        "Global.max_text_length; the default is PaddleOCR's).",
        "长于此值的识别文本会给出警告：PaddleOCR 训练时会丢弃它们（即其 Global.max_text_length；默认值与 "
        "PaddleOCR 相同）。",
    ),
    "cli.dataset.opt.workers": (
        "Image checking processes started besides this one, which checks images too (default: one fewer "
        "than the CPUs). Used from 2,000 images on.",
        "除本进程外另启动的图片校验进程数，本进程也参与校验（默认：CPU 数减一）。图片达 2000 张时启用。",
    ),
    "cli.dataset.opt.quick": (
        "Read only each image's header (format, size, mode): a file cut short passes. Default: the header "
        "and where the data ends, with a full decode where that is not enough and of a sample.",
        "只读取每张图片的文件头（格式、尺寸、模式）：被截断的文件也会通过。默认：读取文件头与数据结尾，"
        "不足以判断时以及抽样的图片完整解码。",
    ),
    "cli.dataset.opt.full": (
        "Decode every image in full (slowest; finds damage inside the data too).",
        "完整解码每张图片（最慢；也能发现数据内部的损坏）。",
    ),
    "cli.dataset.guessed": ("format: {format} (guessed from the files)", "格式：{format}（根据文件推断）"),
    "cli.dataset.group": ("{code} ×{count}", "{code} ×{count}"),
    "cli.dataset.more": ("… and {count} more", "……另有 {count} 处"),
    "cli.dataset.errors": ("Errors", "错误"),
    "cli.dataset.warnings": ("Warnings", "警告"),
    "cli.dataset.histogram": ("Samples per class", "各类别样本数"),
    "cli.dataset.summary_ok": (
        "ok: {samples} samples checked, {images} images verified ({decoded} decoded in full) in {seconds} s; "
        "{warnings} warnings",
        "通过：检查了 {samples} 个样本，{seconds} 秒内校验 {images} 张图片（完整解码 {decoded} 张）；"
        "{warnings} 条警告",
    ),
    "cli.dataset.summary_fail": (
        "{errors} errors in {samples} samples ({images} images verified, {decoded} decoded in full, in "
        "{seconds} s); {warnings} warnings",
        "{samples} 个样本中有 {errors} 处错误（{seconds} 秒内校验 {images} 张图片，完整解码 {decoded} 张）；"
        "{warnings} 条警告",
    ),
    "dataset.paddlex.err_msg": (
        "Check dataset failed. We encountered the following error:\n  {error}\n"
        "Please try to resolve the issue as follows:\n  {hint}",
        "数据集校验失败。遇到以下错误：\n  {error}\n请按以下方法解决：\n  {hint}",
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
    "cli.dataset.out_not_dir": (
        "{path} is a file, or lies under one; choose a new folder",
        "{path} 是文件或位于文件之下；请换一个新目录",
    ),
    "cli.dataset.out_unusable": (
        "{path} cannot be used: {error}; choose another folder",
        "{path} 无法使用：{error}；请换一个目录",
    ),
    "cli.dataset.opt.max_list_mb": (
        "Refuse a train.txt / val.txt larger than this many MiB unread (memory grows with the list).",
        "拒绝读取大于此 MiB 数的 train.txt / val.txt（内存占用随列表增长）。",
    ),
    "cli.dataset.not_written": (
        "--fix / --sample not written: some input was refused (see the errors above)",
        "未写入 --fix / --sample：部分输入被拒绝（见上方错误）",
    ),
    "cli.dataset.refused": (
        "check incomplete: some input was refused unread (file_too_large, line_too_long, nul_byte, "
        "image_too_large above); fix it and check again",
        "检查不完整：部分输入未读取即被拒绝（见上方 file_too_large、line_too_long、nul_byte、"
        "image_too_large）；修正后请重新检查",
    ),
    "cli.dataset.progress.lines": ("reading lists", "读取列表"),
    "cli.dataset.progress.images": ("checking images", "校验图片"),
    "dataset.panel.title": ("Dataset {path} ({format})", "数据集 {path}（{format}）"),
    "dataset.panel.summary": (
        "{errors} errors, {warnings} warnings in {samples} samples",
        "{samples} 个样本中有 {errors} 处错误、{warnings} 条警告",
    ),
    "dataset.panel.checking": (
        "Checking the dataset of {run}… (the report replaces this line when it is done)",
        "正在检查 {run} 的数据集…（完成后报告会替换这一行）",
    ),
    "dataset.panel.no_data": (
        "this run names no dataset folder (its task takes no data)",
        "该运行没有数据集目录（其任务不读取数据）",
    ),
    "ui.key.check_dataset": ("Dataset", "数据集"),
    "worker.dataset_check": ("checking the dataset", "检查数据集"),
}
