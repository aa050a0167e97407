"""Troubleshooting flows (the wizard): flow titles, step prompts, choices, findings; probes' evidence; flow
validation errors. Step keys are ``wizard.<flow>.<step>`` (prompt or finding title), ``.<choice>`` (a
choice's label), ``.cause`` / ``.fix`` (a finding's)."""

E = tuple[str, str]

# flow id → {step id: prompt/title, "step.choice": label, "step.cause"/"step.fix": finding text}
_FLOWS: dict[str, tuple[E, dict[str, E]]] = {
    "import_fails": (
        ("import paddle fails", "import paddle 失败"),
        {
            "interpreter": (
                "Which Python runs the code, and does it have Paddle?",
                "运行代码的是哪个 Python，其中有 Paddle 吗？",
            ),
            "import_check": ("Importing Paddle in a child process…", "正在子进程中导入 Paddle……"),
            "platform": ("Which system does the import fail on?", "在哪个系统上导入失败？"),
            "platform.linux": ("Linux (or macOS)", "Linux（或 macOS）"),
            "platform.windows": ("Windows", "Windows"),
            "linux_error": ("What does the error say?", "报错内容是什么？"),
            "linux_error.illegal": ("Illegal instruction (core dumped)", "Illegal instruction（非法指令）"),
            "linux_error.glibcxx": ("GLIBCXX_… / GLIBC_… not found", "找不到 GLIBCXX_… / GLIBC_…"),
            "linux_error.other": ("Something else", "其他"),
            "not_installed": ("Paddle is not installed in this interpreter", "当前解释器中没有安装 Paddle"),
            "not_installed.cause": (
                "The Python running the code is not the one Paddle was installed into.",
                "运行代码的 Python 不是安装 Paddle 的那个。",
            ),
            "not_installed.fix": (
                "Install into exactly that interpreter: <python> -m pip install paddlepaddle (the path is in the evidence).",
                "安装到该解释器：<python> -m pip install paddlepaddle（路径见证据）。",
            ),
            "imports_here": ("Paddle imports fine here", "Paddle 在这里可以正常导入"),
            "imports_here.cause": (
                "In this interpreter the import works; the failing one is another environment (IDE, notebook kernel, "
                "service user, container).",
                "在当前解释器中导入正常；失败的是另一个环境（IDE、notebook 内核、服务用户、容器）。",
            ),
            "imports_here.fix": (
                "Print sys.executable in the failing place and compare; or paste its error into 'I have an error'.",
                "在失败处打印 sys.executable 并比较；或把报错粘贴到“我有一个报错”。",
            ),
            "no_avx": ("The CPU lacks AVX", "CPU 不支持 AVX"),
            "no_avx.cause": (
                "The wheel uses AVX instructions this CPU (or VM) does not expose.",
                "该 wheel 使用了本 CPU（或虚拟机）不支持的 AVX 指令。",
            ),
            "no_avx.fix": (
                "Enable host CPU pass-through in the VM, or install a no-AVX build.",
                "在虚拟机中启用宿主 CPU 透传，或安装 no-AVX 版本。",
            ),
            "old_runtime": ("C/C++ runtime too old", "C/C++ 运行库过旧"),
            "old_runtime.cause": (
                "libstdc++ or glibc on this system is older than the wheel was built for.",
                "本系统的 libstdc++ 或 glibc 比 wheel 编译时的旧。",
            ),
            "old_runtime.fix": (
                "conda install -c conda-forge libstdcxx-ng, or use a newer OS image (Ubuntu 22.04).",
                "conda install -c conda-forge libstdcxx-ng，或使用更新的系统镜像（Ubuntu 22.04）。",
            ),
            "windows_dll": ("A DLL did not load (Windows)", "DLL 加载失败（Windows）"),
            "windows_dll.cause": (
                "The Visual C++ runtime or (GPU builds) CUDA/cuDNN DLLs are missing from PATH.",
                "缺少 Visual C++ 运行库，或（GPU 版）CUDA/cuDNN 的 DLL 不在 PATH 中。",
            ),
            "windows_dll.fix": (
                "Install the Microsoft Visual C++ Redistributable (x64); add CUDA and cuDNN bin folders to PATH.",
                "安装 Microsoft Visual C++ 可再发行组件（x64）；把 CUDA 与 cuDNN 的 bin 目录加入 PATH。",
            ),
            "paste_error": ("Diagnose the exact error", "诊断具体报错"),
            "paste_error.cause": (
                "The message decides the cause; the checks above found nothing wrong here.",
                "原因取决于报错内容；上面的检查在这里没有发现问题。",
            ),
            "paste_error.fix": (
                "paddle-workbench diagnose --log FILE (or paste it under 'I have an error').",
                "paddle-workbench diagnose --log FILE（或粘贴到“我有一个报错”）。",
            ),
        },
    ),
    "parallel_hangs": (
        ("Parallel training hangs or times out", "并行训练卡住或超时"),
        {
            "devices": ("Counting devices and processes…", "正在统计设备与进程……"),
            "cpu_backend": (
                "No GPU here. Does the launch command or code ask for GPUs (--devices, backend nccl)?",
                "这里没有 GPU。启动命令或代码是否请求了 GPU（--devices、backend nccl）？",
            ),
            "port": ("Checking the rendezvous port…", "正在检查会合端口……"),
            "same_code": (
                "Does every rank run the same code path (same collectives, same order, same number of steps)?",
                "每个 rank 是否执行相同的代码路径（相同的集合通信、顺序和步数）？",
            ),
            "gpu_flags_on_cpu": ("GPU options on a CPU machine", "在 CPU 机器上使用了 GPU 选项"),
            "gpu_flags_on_cpu.cause": (
                "--devices or an NCCL backend on a machine without GPUs makes ranks fail or wait.",
                "在没有 GPU 的机器上使用 --devices 或 NCCL 后端，会让 rank 失败或等待。",
            ),
            "gpu_flags_on_cpu.fix": (
                "Drop --devices and the backend: the launcher picks gloo on CPU (--nproc_per_node N).",
                "去掉 --devices 和 backend：启动器在 CPU 上会自动选 gloo（--nproc_per_node N）。",
            ),
            "port_busy": ("The rendezvous port is taken", "会合端口已被占用"),
            "port_busy.cause": (
                "Another job or a leftover process holds the port, so ranks never meet.",
                "另一个任务或残留进程占用了端口，各 rank 无法会合。",
            ),
            "port_busy.fix": (
                "Stop it (ss -ltnp) or pass another --master port.",
                "结束该进程（ss -ltnp）或换一个 --master 端口。",
            ),
            "firewall": ("A host cannot be reached", "有主机无法连接"),
            "firewall.cause": (
                "A listed host does not answer on the port: wrong address, firewall, or its launcher not started.",
                "某个主机在该端口没有响应：地址错误、防火墙，或其启动器未启动。",
            ),
            "firewall.fix": (
                "Check --master on every node and open the port between nodes (nc -zv host port).",
                "检查各节点的 --master，并开放节点间端口（nc -zv host port）。",
            ),
            "divergent_ranks": ("Ranks take different paths", "各 rank 执行路径不同"),
            "divergent_ranks.cause": (
                "A collective that only some ranks reach waits forever for the others.",
                "只有部分 rank 到达的集合通信会一直等待其他 rank。",
            ),
            "divergent_ranks.fix": (
                "Make data per rank the same length (drop_last, DistributedBatchSampler) and keep collectives "
                "outside rank-dependent branches.",
                "让各 rank 的数据长度相同（drop_last、DistributedBatchSampler），并把集合通信放在与 rank 无关的分支外。",
            ),
            "first_rank": ("Find the first rank that failed", "找到最先失败的 rank"),
            "first_rank.cause": (
                "Time-outs on most ranks are usually the consequence of one rank's error or hang.",
                "大多数 rank 的超时通常是某一个 rank 出错或卡住的结果。",
            ),
            "first_rank.fix": (
                "paddle-workbench diagnose --run RUN (or --log log/workerlog.N) ranks the real error first.",
                "paddle-workbench diagnose --run RUN（或 --log log/workerlog.N）会把真正的错误排在最前。",
            ),
        },
    ),
    "parallel_worse": (
        ("Parallel training is worse than one card", "并行训练效果比单卡差"),
        {
            "seeds": ("Checking seeds in the run config…", "正在检查运行配置中的随机种子……"),
            "lr": ("Comparing the learning rate with the global batch…", "正在比较学习率与全局 batch……"),
            "plan": ("Validating the sharding plan…", "正在校验切分方案……"),
            "batchnorm": ("Does the model use BatchNorm?", "模型中使用了 BatchNorm 吗？"),
            "unseeded": ("Seeds are not fixed", "未固定随机种子"),
            "unseeded.cause": (
                "Without a seed, runs differ by chance; one comparison proves nothing.",
                "不固定种子时，运行之间本就有随机差异；一次比较说明不了问题。",
            ),
            "unseeded.fix": ("Set train.seed and compare again.", "设置 train.seed 后再比较。"),
            "lr_too_high": ("Learning rate too high for the global batch", "学习率相对全局 batch 过高"),
            "lr_too_high.cause": (
                "The learning rate per 256 samples is above what this optimizer usually tolerates.",
                "每 256 个样本对应的学习率超出该优化器通常能承受的范围。",
            ),
            "lr_too_high.fix": (
                "Scale lr linearly with the global batch (lr × global/256 from a known single-card value) and add warmup.",
                "按全局 batch 线性缩放学习率（以单卡已知值 × global/256），并加入 warmup。",
            ),
            "plan_wrong": ("The sharding plan has problems", "切分方案有问题"),
            "plan_wrong.cause": (
                "The plan does not fit the model (see evidence).",
                "该方案与模型不匹配（见证据）。",
            ),
            "plan_wrong.fix": (
                "Fix the lines named; paddle-workbench plan validate PLAN.",
                "修正所列行；paddle-workbench plan validate PLAN。",
            ),
            "sync_bn": ("BatchNorm statistics per card", "BatchNorm 统计量按卡计算"),
            "sync_bn.cause": (
                "Each card normalises over its own small batch, unlike one card with the whole batch.",
                "每张卡只用自己的小 batch 归一化，与单卡使用整个 batch 不同。",
            ),
            "sync_bn.fix": (
                "paddle.nn.SyncBatchNorm.convert_sync_batchnorm(model), or keep the per-card batch ≥ 16.",
                "paddle.nn.SyncBatchNorm.convert_sync_batchnorm(model)，或保持每卡 batch ≥ 16。",
            ),
            "data_split": ("Check how data is split", "检查数据的切分方式"),
            "data_split.cause": (
                "Ranks that see the same samples (no DistributedBatchSampler) train on less data per epoch.",
                "若各 rank 看到相同样本（未用 DistributedBatchSampler），每个 epoch 实际训练的数据更少。",
            ),
            "data_split.fix": (
                "Use paddle.io.DistributedBatchSampler and compare per-sample, not per-step, curves.",
                "使用 paddle.io.DistributedBatchSampler，并按样本数而不是步数比较曲线。",
            ),
        },
    ),
    "inference_disagrees": (
        ("Inference disagrees with training", "推理结果与训练不一致"),
        {
            "compare": ("Reading the run's last comparison…", "正在读取该运行最近的对比结果……"),
            "inputs": (
                "The exported model matches. Do the inputs in deployment go through other preprocessing?",
                "导出的模型一致。部署时的输入是否经过了不同的预处理？",
            ),
            "train_mode": ("Model left in train mode", "模型停留在训练模式"),
            "train_mode.cause": (
                "Dropout/BatchNorm behave differently in train mode; the export or check ran without eval().",
                "Dropout/BatchNorm 在训练模式下行为不同；导出或检查时没有调用 eval()。",
            ),
            "train_mode.fix": (
                "Call model.eval() before exporting and evaluating.",
                "导出和评估前调用 model.eval()。",
            ),
            "preprocessing": ("Preprocessing differs", "预处理不一致"),
            "preprocessing.cause": (
                "Resize, normalisation, channel order or layout differ between training and inference.",
                "训练与推理的缩放、归一化、通道顺序或布局不同。",
            ),
            "preprocessing.fix": (
                "Reuse the export's preprocess.json in deployment; compare one image end to end.",
                "部署时复用导出的 preprocess.json；用一张图片端到端对比。",
            ),
            "precision": ("A path leaves its tolerance", "某条路径超出容差"),
            "precision.cause": (
                "An inference path differs beyond its tolerance (see evidence).",
                "某条推理路径的差异超出容差（见证据）。",
            ),
            "precision.fix": (
                "Open the compare report; switch off the optimisation named for that path.",
                "打开对比报告；关闭该路径所列的优化。",
            ),
            "run_compare": ("No comparison yet", "还没有对比结果"),
            "run_compare.cause": ("The run has no compare report to read.", "该运行没有可读取的对比报告。"),
            "run_compare.fix": (
                "paddle-workbench compare RUN, then walk this again.",
                "运行 paddle-workbench compare RUN 后再走一遍。",
            ),
            "agree": ("Model and inputs agree", "模型与输入一致"),
            "agree.cause": (
                "The export matches training and the inputs match: look at post-processing (thresholds, label maps).",
                "导出与训练一致，输入也一致：请检查后处理（阈值、标签映射）。",
            ),
            "agree.fix": ("Compare post-processing code line by line.", "逐行比较后处理代码。"),
        },
    ),
    "op_unsupported": (
        ("An operator is unsupported on the target hardware", "目标硬件不支持某个算子"),
        {
            "target": ("Where should the model run?", "模型要在哪里运行？"),
            "target.gpu": ("GPU with Paddle Inference", "GPU（Paddle Inference）"),
            "target.onnx": ("ONNX / another runtime", "ONNX / 其他运行时"),
            "target.other": ("XPU, NPU or another custom device", "XPU、NPU 或其他自定义设备"),
            "kernels": (
                "Checking kernels for the exported model's operators…",
                "正在检查导出模型各算子的核函数……",
            ),
            "onnx": (
                "Paste the operators the converter names (or leave empty)",
                "粘贴转换器列出的算子（可留空）",
            ),
            "missing_kernel": ("Operators without a kernel for the target", "部分算子没有目标设备的核函数"),
            "missing_kernel.cause": (
                "This build has no kernel for those operators on the target (see evidence).",
                "此版本在目标设备上没有这些算子的核函数（见证据）。",
            ),
            "missing_kernel.fix": (
                "Use the target's Paddle build, replace the operators, or let them fall back to CPU.",
                "使用目标设备对应的 Paddle 版本、替换这些算子，或让它们回退到 CPU。",
            ),
            "dtype": ("Kernels exist: check the data type", "核函数存在：请检查数据类型"),
            "dtype.cause": (
                "Every operator has a kernel; a missing-kernel error then usually names a dtype (float16, int8).",
                "每个算子都有核函数；此时的缺核报错通常与数据类型有关（float16、int8）。",
            ),
            "dtype.fix": (
                "Run those operators in float32 (AMP black list).",
                "让这些算子以 float32 运行（AMP 黑名单）。",
            ),
            "export_first": ("No export to inspect", "没有可检查的导出模型"),
            "export_first.cause": ("The run has no exported model.json.", "该运行没有导出的 model.json。"),
            "export_first.fix": (
                "Train with export.enabled or run paddle-workbench compare RUN.",
                "训练时开启 export.enabled，或运行 paddle-workbench compare RUN。",
            ),
            "onnx_ops": ("Operators the ONNX converter lacks", "ONNX 转换器缺少的算子"),
            "onnx_ops.cause": (
                "paddle2onnx has no converter for them.",
                "paddle2onnx 没有这些算子的转换器。",
            ),
            "onnx_ops.fix": (
                "Upgrade paddle2onnx, try another opset, or deploy with Paddle Inference.",
                "升级 paddle2onnx、换 opset，或改用 Paddle Inference 部署。",
            ),
            "custom_device": ("Custom device plug-in", "自定义设备插件"),
            "custom_device.cause": (
                "Custom devices register their own kernels; the plug-in must match the Paddle version.",
                "自定义设备注册自己的核函数；插件必须与 Paddle 版本匹配。",
            ),
            "custom_device.fix": (
                "Install the plug-in release for your Paddle version.",
                "安装与当前 Paddle 版本对应的插件。",
            ),
        },
    ),
    "lowcode_data": (
        ("Low-code training fails on data format", "低代码训练因数据格式失败"),
        {
            "lint": ("Linting the run's dataset as the kits read it…", "正在按套件的方式检查运行的数据集……"),
            "which_kit": ("Which kit do you train with?", "使用哪个套件训练？"),
            "which_kit.paddlex": ("PaddleX", "PaddleX"),
            "which_kit.ocr": ("PaddleOCR", "PaddleOCR"),
            "which_kit.det": ("PaddleDetection", "PaddleDetection"),
            "labels": (
                "The layout is fine. Do labels start at 0 and stay below num_classes?",
                "目录结构没问题。标签是否从 0 开始且小于 num_classes？",
            ),
            "bad_lines": ("The dataset has bad lines", "数据集中有错误行"),
            "bad_lines.cause": (
                "The kit's reader stops at these lines (see evidence).",
                "套件读取器会在这些行报错（见证据）。",
            ),
            "bad_lines.fix": (
                "Fix them, or paddle-workbench dataset check DIR --fix OUT.",
                "修正它们，或运行 paddle-workbench dataset check DIR --fix OUT。",
            ),
            "paddlex": ("Run PaddleX's own check", "运行 PaddleX 自带的检查"),
            "paddlex.cause": (
                "PaddleX checks the dataset before training and names the file.",
                "PaddleX 在训练前检查数据集并给出文件名。",
            ),
            "paddlex.fix": (
                "-o Global.mode=check_dataset, or paddle-workbench dataset check DIR.",
                "-o Global.mode=check_dataset，或 paddle-workbench dataset check DIR。",
            ),
            "ocr": ("PaddleOCR label lists", "PaddleOCR 标注列表"),
            "ocr.cause": (
                "Lines must be '<path>\\t<text>' with a tab.",
                "每行必须是用 Tab 分隔的 '<路径>\\t<文本>'。",
            ),
            "ocr.fix": (
                "paddle-workbench dataset check DIR --format rec.",
                "paddle-workbench dataset check DIR --format rec。",
            ),
            "det": ("PaddleDetection annotations", "PaddleDetection 标注"),
            "det.cause": (
                "anno_path/image_dir wrong, or every image lacks boxes.",
                "anno_path/image_dir 错误，或所有图片都没有框。",
            ),
            "det.fix": (
                "Check the reader config paths; allow_empty for empty images.",
                "检查 reader 配置路径；空图需设置 allow_empty。",
            ),
            "num_classes": ("Labels fit", "标签范围正确"),
            "num_classes.cause": (
                "The layout and labels are fine; the kit config may disagree.",
                "目录和标签都正确；可能是套件配置不一致。",
            ),
            "num_classes.fix": (
                "Set num_classes (class_num) to the number of lines in label.txt.",
                "把 num_classes（class_num）设为 label.txt 的行数。",
            ),
            "kit_version": ("Labels out of range", "标签超出范围"),
            "kit_version.cause": (
                "Labels starting at 1 (or 255 in masks) exceed num_classes-1.",
                "从 1 开始的标签（或分割标注中的 255）超出 num_classes-1。",
            ),
            "kit_version.fix": (
                "Renumber from 0, or set ignore_index=255.",
                "从 0 重新编号，或设置 ignore_index=255。",
            ),
        },
    ),
    "which_path": (
        ("Which path should I take?", "我该走哪条路？"),
        {
            "task": ("What is the task?", "任务类型是什么？"),
            "task.vision": (
                "Vision (classification, detection, OCR, segmentation)",
                "视觉（分类、检测、OCR、分割）",
            ),
            "task.nlp": ("Language / recommendation", "语言 / 推荐"),
            "task.science": (
                "Scientific computing (PDEs, physics-informed networks)",
                "科学计算（PDE、物理信息网络）",
            ),
            "customise": ("How much do you need to change the model?", "需要对模型做多少改动？"),
            "customise.none": ("Nothing: train on my data", "不改：用我的数据训练"),
            "customise.some": ("Some: change heads, losses, configs", "少量：改头部、损失、配置"),
            "customise.deep": ("A lot: new architectures or training loops", "大量：新架构或训练循环"),
            "deploy": ("Where will it run?", "部署在哪里？"),
            "deploy.server": ("Server / cloud", "服务器 / 云"),
            "deploy.edge": ("Edge or mobile", "边缘设备或移动端"),
            "grad": (
                "Checking higher-order differentiation (paddle.grad, create_graph=True)…",
                "正在检查高阶微分（paddle.grad，create_graph=True）……",
            ),
            "low_code": ("A low-code kit (PaddleX)", "低代码套件（PaddleX）"),
            "low_code.cause": (
                "Standard task, no model changes, server deployment.",
                "标准任务、无需改模型、服务器部署。",
            ),
            "low_code.fix": (
                "Start with PaddleX's pipeline for the task; check the dataset first.",
                "从 PaddleX 对应任务的产线开始；先检查数据集。",
            ),
            "low_code_edge": ("A low-code kit with an edge export", "低代码套件 + 边缘端导出"),
            "low_code_edge.cause": ("Standard task deployed to small devices.", "标准任务部署到小型设备。"),
            "low_code_edge.fix": (
                "PaddleX with a lightweight model, exported for Paddle Lite.",
                "使用 PaddleX 的轻量模型，导出到 Paddle Lite。",
            ),
            "model_library": (
                "A model library (PaddleClas, PaddleDetection, PaddleOCR, PaddleSeg)",
                "模型库（PaddleClas、PaddleDetection、PaddleOCR、PaddleSeg）",
            ),
            "model_library.cause": (
                "You change configs and parts, not the training loop.",
                "你要改的是配置和组件，而不是训练循环。",
            ),
            "model_library.fix": (
                "Clone the library for the task and edit its YAML configs.",
                "克隆对应任务的模型库并修改其 YAML 配置。",
            ),
            "core_framework": ("The core framework (paddle)", "核心框架（paddle）"),
            "core_framework.cause": (
                "New architectures need your own model and loop.",
                "新架构需要自己的模型与训练循环。",
            ),
            "core_framework.fix": (
                "Write paddle.nn models; paddle-workbench train with task: custom.",
                "编写 paddle.nn 模型；用 task: custom 运行 paddle-workbench train。",
            ),
            "science_ok": ("The core framework, with higher-order gradients", "核心框架（支持高阶梯度）"),
            "science_ok.cause": (
                "paddle.grad with create_graph=True works on this install (see the values).",
                "当前安装中 paddle.grad（create_graph=True）可用（见数值）。",
            ),
            "science_ok.fix": (
                "Build on paddle directly (or PaddleScience) for PDE losses.",
                "直接基于 paddle（或 PaddleScience）编写 PDE 损失。",
            ),
            "science_broken": ("Higher-order gradients fail here", "这里的高阶梯度不可用"),
            "science_broken.cause": (
                "paddle.grad with create_graph=True failed on this install.",
                "当前安装中 paddle.grad（create_graph=True）失败。",
            ),
            "science_broken.fix": (
                "Run paddle-workbench check; update Paddle; then retry.",
                "运行 paddle-workbench check；更新 Paddle 后重试。",
            ),
        },
    ),
    "training_slow": (
        ("Training is slow", "训练很慢"),
        {
            "data_wait": (
                "Comparing data wait with compute in the run's metrics…",
                "正在比较运行指标中的数据等待与计算时间……",
            ),
            "threads": ("Checking thread settings…", "正在检查线程设置……"),
            "device": ("Does it train on a GPU?", "是在 GPU 上训练吗？"),
            "more_workers": ("Waiting for data", "在等待数据"),
            "more_workers.cause": (
                "Steps spend a large share waiting for the next batch.",
                "每步有很大比例的时间在等待下一个 batch。",
            ),
            "more_workers.fix": (
                "Raise DataLoader num_workers, use shared memory, pre-decode images.",
                "增大 DataLoader 的 num_workers，启用共享内存，预先解码图片。",
            ),
            "omp": ("One CPU thread", "只用了一个 CPU 线程"),
            "omp.cause": (
                "OMP_NUM_THREADS is unset or 1 (import paddle sets 1 when unset), so CPU kernels use one core.",
                "OMP_NUM_THREADS 未设置或为 1（未设置时 import paddle 会设为 1），CPU 核函数只用一个核。",
            ),
            "omp.fix": (
                "export OMP_NUM_THREADS=<cores> before starting Python.",
                "启动 Python 前执行 export OMP_NUM_THREADS=<核数>。",
            ),
            "amp": ("Compute-bound on GPU", "GPU 计算受限"),
            "amp.cause": ("The GPU is the bottleneck.", "瓶颈在 GPU。"),
            "amp.fix": (
                "Use AMP (float16/bfloat16), larger batches, or more cards.",
                "使用 AMP（float16/bfloat16）、更大的 batch 或更多卡。",
            ),
            "cpu_bound": ("Compute-bound on CPU", "CPU 计算受限"),
            "cpu_bound.cause": (
                "Training on CPU is limited by the cores available.",
                "CPU 训练受可用核数限制。",
            ),
            "cpu_bound.fix": (
                "Use a GPU, a smaller model, or fewer steps for experiments.",
                "使用 GPU、更小的模型，或实验时减少步数。",
            ),
        },
    ),
}

MESSAGES: dict[str, tuple[str, str]] = {
    "flow.error.kind": (
        "step '{step}' must be exactly one of: ask, probe, finding",
        "步骤 '{step}' 必须且只能是 ask、probe、finding 之一",
    ),
    "flow.error.duplicate": ("step id '{step}' is used twice", "步骤 id '{step}' 重复"),
    "flow.error.dangling": (
        "step '{step}' branches to '{target}', which is not a step of this flow",
        "步骤 '{step}' 跳转到 '{target}'，但本流程没有这个步骤",
    ),
    "flow.error.choices": (
        "choice step '{step}' needs at least two choices",
        "选择步骤 '{step}' 至少需要两个选项",
    ),
    "flow.error.yesno": (
        "yes/no step '{step}' needs both if_yes: and if_no:",
        "是/否步骤 '{step}' 需要同时给出 if_yes: 与 if_no:",
    ),
    "flow.error.text": ("text step '{step}' needs next:", "文本步骤 '{step}' 需要 next:"),
    "flow.error.probe": ("unknown probe '{probe}' (known: {known})", "未知探针 '{probe}'（已有：{known}）"),
    "flow.error.outcome": (
        "probe '{probe}' has no outcome '{outcome}'",
        "探针 '{probe}' 没有结果 '{outcome}'",
    ),
    "flow.error.uncovered": (
        "outcome '{outcome}' of probe '{probe}' leads nowhere (add it, or '*')",
        "探针 '{probe}' 的结果 '{outcome}' 没有去向（请添加，或使用 '*'）",
    ),
    "flow.error.unreachable": ("step '{step}' is never reached", "步骤 '{step}' 永远不会到达"),
    "flow.error.string": ("missing catalog string {key}", "缺少目录字符串 {key}"),
    "flow.evidence.text": ("you said: {text}", "你的回答：{text}"),
    "flow.evidence.probe": ("probe {probe}: {outcome}", "探针 {probe}：{outcome}"),
    "flow.probe_error.title": ("A check could not run", "有检查无法运行"),
    "flow.probe_error.cause": (
        "The automatic check failed on this machine (see evidence).",
        "自动检查在本机运行失败（见证据）。",
    ),
    "flow.probe_error.fix": (
        "Run paddle-workbench check, then walk the flow again.",
        "运行 paddle-workbench check 后再走一遍流程。",
    ),
    "ui.wizard.pick": (
        'Pick a problem on the left (↑ ↓, enter), or "I have an error" to paste one; r diagnoses the '
        "newest failed run.",
        "在左侧选择一个问题（↑ ↓，enter），或选择“我有一个报错”来粘贴报错；按 r 诊断最近失败的运行。",
    ),
    "ui.wizard.paste": ("I have an error", "我有一个报错"),
    "ui.wizard.paste.prompt": (
        "Paste the error or log below, then press ctrl+s.",
        "在下方粘贴报错或日志，然后按 ctrl+s。",
    ),
    "ui.wizard.paste.source": ("pasted", "粘贴内容"),
    "ui.wizard.diagnosing": ("Diagnosing…", "正在诊断……"),
    "ui.wizard.continue": (
        'Press f to continue with the flow "{flow}"; e exports this diagnosis.',
        "按 f 继续“{flow}”流程；按 e 导出本次诊断。",
    ),
    "ui.wizard.evidence": ("Evidence so far:", "目前的证据："),
    "ui.wizard.done": ("Finding: {title}", "结论：{title}"),
    "ui.wizard.export_diagnosis": ("e exports this diagnosis.", "按 e 导出本次诊断。"),
    "ui.wizard.key.tab": ("switch pane", "切换窗格"),
    "ui.wizard.export_hint": (
        "e exports this finding; b goes back a step.",
        "按 e 导出该结论；按 b 返回上一步。",
    ),
    "ui.wizard.yes": ("Yes", "是"),
    "ui.wizard.no": ("No", "否"),
    "ui.wizard.key.back": ("step back", "上一步"),
    "ui.wizard.key.submit": ("submit text", "提交文本"),
    "ui.wizard.key.export": ("export report", "导出报告"),
    "ui.wizard.key.follow": ("follow flow", "继续流程"),
    "ui.wizard.exported": ("report written: {path}", "报告已写入：{path}"),
    "ui.wizard.report_title": ("Paddle Workbench troubleshooting report", "Paddle Workbench 故障排查报告"),
    "ui.wizard.key.run": ("diagnose failed run", "诊断失败的运行"),
    "ui.wizard.no_failed": ("No failed run in this workspace.", "本工作区没有失败的运行。"),
    "worker.wizard_run": ("diagnosing the newest failed run", "诊断最近失败的运行"),
    "worker.wizard_probe": ("running a troubleshooting check", "运行故障排查检查"),
    "worker.wizard_diagnose": ("diagnosing the pasted error", "诊断粘贴的报错"),
    "worker.wizard_export": ("writing the troubleshooting report", "写入故障排查报告"),
    "probe.error": ("{name} failed: {error}", "{name} 失败：{error}"),
    "probe.no_run": ("no run selected", "未选择运行"),
    "probe.interpreter.python": ("python: {path} ({version})", "python：{path}（{version}）"),
    "probe.interpreter.missing": (
        "paddle: not importable from this interpreter",
        "paddle：当前解释器无法导入",
    ),
    "probe.interpreter.found": ("paddle: {path}", "paddle：{path}"),
    "probe.devices.cpus": ("CPU cores: {count}", "CPU 核数：{count}"),
    "probe.devices.gpus": ("GPUs (nvidia-smi -L): {count}", "GPU（nvidia-smi -L）：{count}"),
    "probe.devices.nproc": ("processes per node in the run: {count}", "运行中每节点进程数：{count}"),
    "probe.ports.free": ("port {port}: free on this machine", "端口 {port}：本机空闲"),
    "probe.ports.in_use": ("port {port}: in use ({error})", "端口 {port}：已被占用（{error}）"),
    "probe.ports.reachable": ("{host}:{port}: reachable", "{host}:{port}：可连接"),
    "probe.ports.unreachable": (
        "{host}:{port}: not reachable ({error})",
        "{host}:{port}：无法连接（{error}）",
    ),
    "probe.seeds.none": ("train.seed is not set in the run config", "运行配置中未设置 train.seed"),
    "probe.seeds.fixed": ("train.seed = {seed}", "train.seed = {seed}"),
    "probe.lr.values": (
        "lr {lr}, batch {batch} × {ranks} {ranks:rank|ranks} = global batch {global_batch}; lr per 256 samples {per}",
        "lr {lr}，batch {batch} × {ranks} 个 rank = 全局 batch {global_batch}；每 256 样本的 lr 为 {per}",
    ),
    "probe.plan.none": ("no sharding plan given", "未提供切分方案"),
    "probe.plan.not_available": (
        "plan validation is not available in this version",
        "此版本不提供切分方案校验",
    ),
    "probe.plan.valid": ("{path}: valid", "{path}：有效"),
    "probe.compare.none": (
        "no compare report in the run (reports/compare-*.json)",
        "运行中没有对比报告（reports/compare-*.json）",
    ),
    "probe.compare.ok": ("{file}: every path within tolerance", "{file}：所有路径都在容差内"),
    "probe.kernels.no_export": ("no exported model.json in the run", "运行中没有导出的 model.json"),
    "probe.kernels.summary": (
        "{count} operator types; target {target}; devices in this build: {devices}",
        "{count} 种算子；目标 {target}；本版本支持的设备：{devices}",
    ),
    "probe.kernels.missing": ("no {target} kernel: {ops}", "没有 {target} 核函数：{ops}"),
    "probe.dataset.none": ("the run config names no dataset folder", "运行配置中没有数据集目录"),
    "probe.dataset.ok": ("{path}: {format} layout reads cleanly", "{path}：{format} 格式读取无误"),
    "probe.grad.works": (
        "d/dx x³ at 2 = {first}, d²/dx² = {second} (create_graph=True)",
        "x³ 在 2 处的一阶导 = {first}，二阶导 = {second}（create_graph=True）",
    ),
    "probe.data.no_metrics": (
        "the run has no data_wait_ms / compute_ms metrics",
        "该运行没有 data_wait_ms / compute_ms 指标",
    ),
    "probe.data.values": (
        "last step: data wait {data} ms, compute {compute} ms",
        "最后一步：数据等待 {data} ms，计算 {compute} ms",
    ),
    "probe.threads.values": (
        "OMP_NUM_THREADS={value}; CPU cores: {cpus}",
        "OMP_NUM_THREADS={value}；CPU 核数：{cpus}",
    ),
}

for _flow, ((_te, _tz), _steps) in _FLOWS.items():
    MESSAGES[f"wizard.flow.{_flow}"] = (_te, _tz)
    for _key, _pair in _steps.items():
        MESSAGES[f"wizard.{_flow}.{_key}"] = _pair
