"""COCO detection problems (workbench.datasets.coco): one message and its fix per code."""

MESSAGES: dict[str, tuple[str, str]] = {
    "dataset.problem.coco_missing_file": (
        "annotation file not found (annotations/ holds: {found})",
        "标注文件不存在（annotations/ 下有：{found}）",
    ),
    "dataset.problem.coco_missing_file.hint": (
        "PaddleX reads annotations/instance_train.json and annotations/instance_val.json; rename the files "
        "(e.g. instances_train2017.json) to those names",
        "PaddleX 读取 annotations/instance_train.json 与 annotations/instance_val.json；请把标注文件"
        "（如 instances_train2017.json）改为这两个名字",
    ),
    "dataset.problem.coco_images_dir": (
        "no images/ folder beside annotations/",
        "annotations/ 旁没有 images/ 目录",
    ),
    "dataset.problem.coco_images_dir.hint": (
        "put the image files under DIR/images/; each file_name is read relative to it",
        "把图片放在 DIR/images/ 下；每个 file_name 都相对于该目录读取",
    ),
    "dataset.problem.coco_images_dirs": (
        "{count} entries are named images ({found})",
        "有 {count} 个名为 images 的目录或文件（{found}）",
    ),
    "dataset.problem.coco_images_dirs.hint": (
        "PaddleX takes the dataset root as the parent of the one entry named images under the folder and "
        "stops (AssertionError) when there are more; rename the others",
        "PaddleX 把目录下唯一名为 images 的条目的上级目录当作数据集根目录，多于一个时会报 AssertionError 并停止；请重命名其余的",
    ),
    "dataset.problem.coco_json": (
        "not valid JSON: {error} (column {column})",
        "不是合法的 JSON：{error}（第 {column} 列）",
    ),
    "dataset.problem.coco_json.hint": (
        "fix the JSON at this line and column (a missing comma, quote or bracket is the usual cause); "
        "python -m json.tool FILE points at the same place",
        "在此行此列修正 JSON（常见原因是缺逗号、引号或括号）；python -m json.tool FILE 会指向同一位置",
    ),
    "dataset.problem.coco_top": (
        "the file is not a JSON object",
        "文件不是 JSON 对象",
    ),
    "dataset.problem.coco_top.hint": (
        'a COCO file is one JSON object holding the lists "images", "annotations" and "categories"',
        'COCO 文件是一个 JSON 对象，包含 "images"、"annotations" 与 "categories" 三个列表',
    ),
    "dataset.problem.coco_section": (
        "'{key}' is missing or not a list",
        "'{key}' 缺失或不是列表",
    ),
    "dataset.problem.coco_section.hint": (
        "a COCO file holds three lists: images, annotations and categories",
        "COCO 文件包含三个列表：images、annotations 与 categories",
    ),
    "dataset.problem.coco_empty": ("'{key}' is empty", "'{key}' 为空"),
    "dataset.problem.coco_empty.hint": (
        "PaddleDetection stops with 'not found any coco record' on a file without images, and numbers no "
        "class without categories; fill the list",
        "没有图片时 PaddleDetection 会报 'not found any coco record' 并停止，没有类别则无类可训；请补全该列表",
    ),
    "dataset.problem.coco_not_object": (
        "an entry of {kind} is not a JSON object",
        "{kind} 中有一项不是 JSON 对象",
    ),
    "dataset.problem.coco_not_object.hint": (
        'each entry is a JSON object of named fields ("id": 1, ...); remove stray values from the list',
        '每一项都应是由命名字段（"id": 1, ...）组成的 JSON 对象；请从列表中删除多余的值',
    ),
    "dataset.problem.coco_field": (
        "'{field}' must be {expected}, found {value}",
        "'{field}' 应为 {expected}，实际为 {value}",
    ),
    "dataset.problem.coco_field.hint": (
        "images need id (int), file_name, width and height (> 0); annotations id, image_id, category_id, "
        "bbox, area and iscrowd (0 or 1; --fix adds 0 where missing); categories id and name",
        "images 需要 id（整数）、file_name、width 与 height（> 0）；annotations 需要 id、image_id、category_id、"
        "bbox、area 与 iscrowd（0 或 1；缺失时 --fix 补 0）；categories 需要 id 与 name",
    ),
    "dataset.problem.coco_duplicate_id": (
        "{kind} id {id} is used again (first at {first})",
        "{kind} id {id} 重复（首次出现在 {first}）",
    ),
    "dataset.problem.coco_duplicate_id.hint": (
        "ids are unique within images, annotations and categories: pycocotools keeps only the last entry of "
        "an id; renumber the later one (--fix does it for annotations, which nothing refers to)",
        "images、annotations、categories 各自的 id 必须唯一：pycocotools 只保留同一 id 的最后一项；"
        "请为后者重新编号（annotations 的 id 无人引用，--fix 可自动重编）",
    ),
    "dataset.problem.coco_file_name": (
        "file_name '{path}' is absolute or uses backslashes",
        "file_name '{path}' 是绝对路径或含反斜杠",
    ),
    "dataset.problem.coco_file_name.hint": (
        "write file_name relative to the images/ folder, with forward slashes",
        "file_name 应相对于 images/ 目录，并使用正斜杠",
    ),
    "dataset.problem.coco_missing_image": (
        "image 'images/{path}' does not exist",
        "图片 'images/{path}' 不存在",
    ),
    "dataset.problem.coco_missing_image.hint": (
        "file_name is read under the images/ folder beside annotations/; fix the name or add the file",
        "file_name 在 annotations/ 旁的 images/ 目录下读取；请修正文件名或补上该文件",
    ),
    "dataset.problem.coco_image_size": (
        "the JSON says {json}, the image file is {actual}",
        "JSON 中尺寸为 {json}，图片文件实际为 {actual}",
    ),
    "dataset.problem.coco_image_size.hint": (
        "write the file's real width and height: boxes are checked and clipped against the JSON's size "
        "(an EXIF-rotated photo may show as swapped)",
        "写入图片真实的宽和高：框按 JSON 中的尺寸检查与裁剪（带 EXIF 旋转的照片可能显示为宽高互换）",
    ),
    "dataset.problem.coco_unknown_image": (
        "image_id {id} is not in images",
        "image_id {id} 不在 images 中",
    ),
    "dataset.problem.coco_unknown_image.hint": (
        "add the image entry, or drop the annotation (--fix drops it)",
        "补上对应的图片条目，或删除该标注（--fix 会删除）",
    ),
    "dataset.problem.coco_unknown_category": (
        "category_id {id} is not in categories ({known})",
        "category_id {id} 不在 categories 中（{known}）",
    ),
    "dataset.problem.coco_unknown_category.hint": (
        "add the category, or drop the annotation (--fix drops it); PaddleDetection stops with KeyError on it",
        "补上该类别，或删除该标注（--fix 会删除）；PaddleDetection 遇到它会报 KeyError 并停止",
    ),
    "dataset.problem.coco_bbox_shape": (
        "bbox must be four numbers [x, y, width, height], found {value}",
        "bbox 应为四个数 [x, y, 宽, 高]，实际为 {value}",
    ),
    "dataset.problem.coco_bbox_shape.hint": (
        "COCO boxes are [x, y, width, height] from the top-left corner, in pixels",
        "COCO 的框是以左上角为起点的 [x, y, 宽, 高]，单位为像素",
    ),
    "dataset.problem.coco_bbox_size": (
        "bbox has width {width} and height {height}; both must be > 0",
        "bbox 的宽为 {width}、高为 {height}；二者都必须大于 0",
    ),
    "dataset.problem.coco_bbox_size.hint": (
        "PaddleDetection drops such boxes while loading; fix the box, or drop it (--fix drops it)",
        "PaddleDetection 加载时会丢弃这样的框；请修正该框或删除它（--fix 会删除）",
    ),
    "dataset.problem.coco_bbox_outside": (
        "bbox {box} reaches outside the {width}x{height} image",
        "bbox {box} 超出了 {width}x{height} 的图片",
    ),
    "dataset.problem.coco_bbox_outside.hint": (
        "the box must lie within 0 <= x, x + width <= image width, 0 <= y, y + height <= image height "
        "(--fix clips it to the image)",
        "框应满足 0 <= x、x + 宽 <= 图片宽、0 <= y、y + 高 <= 图片高（--fix 会裁剪到图片内）",
    ),
    "dataset.problem.coco_area": (
        "area must be a number > 0, found {value}",
        "area 应为大于 0 的数，实际为 {value}",
    ),
    "dataset.problem.coco_area.hint": (
        "PaddleDetection reads area for every box and drops those with area <= 0 (a missing one is a "
        "KeyError); --fix sets it from the polygons, else width x height",
        "PaddleDetection 读取每个框的 area，area <= 0 的框会被丢弃（缺失则报 KeyError）；"
        "--fix 按多边形面积设置，没有多边形时取 宽 x 高",
    ),
    "dataset.problem.coco_iscrowd": (
        "iscrowd must be 0 or 1, found {value}",
        "iscrowd 应为 0 或 1，实际为 {value}",
    ),
    "dataset.problem.coco_iscrowd.hint": (
        "0 for one object outlined by polygons, 1 for a crowd region given as RLE",
        "单个物体用 0（多边形轮廓），人群等区域用 1（RLE 掩码）",
    ),
    "dataset.problem.coco_segmentation": (
        "segmentation is {shape} but iscrowd is {iscrowd}",
        "segmentation 是 {shape}，但 iscrowd 为 {iscrowd}",
    ),
    "dataset.problem.coco_segmentation.hint": (
        'iscrowd 0 takes a list of polygons [[x1, y1, x2, y2, ...]], iscrowd 1 an RLE object with "counts" '
        'and "size" [height, width]; fix whichever is wrong',
        'iscrowd 为 0 时 segmentation 是多边形列表 [[x1, y1, x2, y2, ...]]，为 1 时是含 "counts" 与 '
        '"size" [高, 宽] 的 RLE 对象；请修正其中错误的一方',
    ),
    "dataset.problem.coco_crowd_polygons": (
        "iscrowd is 1 but segmentation is a list of polygons",
        "iscrowd 为 1，但 segmentation 是多边形列表",
    ),
    "dataset.problem.coco_crowd_polygons.hint": (
        "COCO gives crowd regions as RLE; if this is one object, set iscrowd to 0 (crowd boxes are left out "
        "of training)",
        "COCO 中人群区域用 RLE 表示；若这是单个物体，请把 iscrowd 设为 0（iscrowd 为 1 的框不参与训练）",
    ),
    "dataset.problem.coco_polygon": (
        "polygon {index} has {count} numbers; a polygon is an even count of at least 6",
        "第 {index} 个多边形有 {count} 个数；多边形应为至少 6 个的偶数个数",
    ),
    "dataset.problem.coco_polygon.hint": (
        "write each polygon as [x1, y1, x2, y2, x3, y3, ...]: pairs of numbers, three points or more",
        "每个多边形写作 [x1, y1, x2, y2, x3, y3, ...]：成对的数，至少三个点",
    ),
    "dataset.problem.coco_rle": (
        "the RLE segmentation is malformed",
        "RLE 格式的 segmentation 不合法",
    ),
    "dataset.problem.coco_rle.hint": (
        "an RLE is counts (a compressed string, or run lengths that add up to height x width) and size "
        "[height, width]",
        "RLE 由 counts（压缩字符串，或总和等于 高 x 宽 的游程列表）和 size [高, 宽] 组成",
    ),
    "dataset.problem.coco_rle_size": (
        "RLE size {size} is not the image's [height, width] {expected}",
        "RLE 的 size {size} 与图片的 [高, 宽] {expected} 不一致",
    ),
    "dataset.problem.coco_rle_size.hint": (
        "the mask must be encoded at the image's own size; re-encode it (pycocotools.mask.encode)",
        "掩码必须按图片自身尺寸编码；请重新编码（pycocotools.mask.encode）",
    ),
    "dataset.problem.coco_categories_differ": (
        "the categories differ from instance_train.json's (only here: {here}; only in train: {train})",
        "类别与 instance_train.json 不一致（仅此处有：{here}；仅训练集有：{train}）",
    ),
    "dataset.problem.coco_categories_differ.hint": (
        "PaddleDetection numbers the classes of each file by its own categories, so val boxes would be "
        "scored against the wrong classes; copy train's categories list",
        "PaddleDetection 按各文件自己的 categories 给类别编号，验证集的框会对应到错误的类别；请复制训练集的 categories 列表",
    ),
    "dataset.problem.coco_categories_order": (
        "the categories are instance_train.json's in another order (ids here: {here}; in train: {train})",
        "类别与 instance_train.json 相同但顺序不同（此处 id：{here}；训练集 id：{train}）",
    ),
    "dataset.problem.coco_categories_order.hint": (
        "PaddleDetection numbers the classes in the order categories are listed, so the order must match "
        "train's; copy train's categories list",
        "PaddleDetection 按 categories 的列出顺序给类别编号，顺序必须与训练集一致；请复制训练集的 categories 列表",
    ),
    "dataset.problem.coco_no_annotations": (
        "image '{path}' has no annotations",
        "图片 '{path}' 没有标注",
    ),
    "dataset.problem.coco_no_annotations.hint": (
        "PaddleDetection skips images without boxes unless allow_empty is set; label it or drop it",
        "除非设置 allow_empty，PaddleDetection 会跳过没有框的图片；请标注或删除它",
    ),
    "dataset.problem.coco_unreadable_sample": (
        "cannot sample from this file: it is not a COCO JSON object",
        "无法从此文件抽样：它不是 COCO JSON 对象",
    ),
    "dataset.problem.coco_unreadable_sample.hint": (
        "fix the errors dataset check reports for this file first",
        "请先修正 dataset check 对此文件报告的错误",
    ),
}
