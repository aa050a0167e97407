"""Troubleshooting: ``diagnose`` (every signature's title, cause and fix), its input messages and output."""

# Each signature id → (title, cause, fix), each as (English, Chinese). Keys: diagnose.<id>.title/.cause/.fix.
_SIGNATURES: dict[str, tuple[tuple[str, str], tuple[str, str], tuple[str, str]]] = {
    # -- libraries -------------------------------------------------------------------------------------
    "libraries.cudnn": (
        ("cuDNN library not found", "找不到 cuDNN 库"),
        (
            "Paddle's GPU build loads libcudnn at run time and could not find it (or found an incompatible one).",
            "Paddle GPU 版在运行时加载 libcudnn，但没有找到（或版本不兼容）。",
        ),
        (
            "Install the cuDNN version your Paddle wheel was built for (paddle.version.cudnn()) and add its lib "
            "folder to LD_LIBRARY_PATH; run 'paddle-workbench check'.",
            "安装与 Paddle 编译时一致的 cuDNN（paddle.version.cudnn()），并把其 lib 目录加入 LD_LIBRARY_PATH；"
            "然后运行 'paddle-workbench check'。",
        ),
    ),
    "libraries.cublas": (
        ("cuBLAS library not found", "找不到 cuBLAS 库"),
        (
            "libcublas (part of the CUDA toolkit) is not on the library path of this process.",
            "libcublas（CUDA 工具包的一部分）不在本进程的库搜索路径中。",
        ),
        (
            "Install the CUDA toolkit matching paddle.version.cuda() (or the nvidia-cublas pip package) and add "
            "its lib folder to LD_LIBRARY_PATH.",
            "安装与 paddle.version.cuda() 一致的 CUDA 工具包（或 nvidia-cublas pip 包），并把其 lib 目录加入 "
            "LD_LIBRARY_PATH。",
        ),
    ),
    "libraries.cudart": (
        ("CUDA runtime or driver library not found", "找不到 CUDA 运行时或驱动库"),
        (
            "libcudart (CUDA runtime) or libcuda (the driver) could not be loaded: no driver, a container "
            "started without GPU access, or the library path is wrong.",
            "无法加载 libcudart（CUDA 运行时）或 libcuda（驱动）：未装驱动、容器未开放 GPU，或库路径错误。",
        ),
        (
            "Check 'nvidia-smi' works; in Docker start with --gpus all; add the CUDA lib folder to "
            "LD_LIBRARY_PATH; or install the CPU wheel if this machine has no GPU.",
            "确认 'nvidia-smi' 可用；Docker 中用 --gpus all 启动；把 CUDA lib 目录加入 LD_LIBRARY_PATH；"
            "若本机无 GPU，请安装 CPU 版。",
        ),
    ),
    "libraries.nccl": (
        ("NCCL library not found", "找不到 NCCL 库"),
        (
            "Multi-GPU communication needs libnccl, which is not on the library path.",
            "多卡通信需要 libnccl，但它不在库搜索路径中。",
        ),
        (
            "Install NCCL matching paddle.version.nccl() (or the nvidia-nccl pip package) and add it to "
            "LD_LIBRARY_PATH.",
            "安装与 paddle.version.nccl() 一致的 NCCL（或 nvidia-nccl pip 包）并加入 LD_LIBRARY_PATH。",
        ),
    ),
    "libraries.third_party": (
        ("A library Paddle depends on is not found", "Paddle 依赖的第三方库未找到"),
        (
            "Paddle could not open a third-party shared library it loads at run time; the message names it.",
            "Paddle 无法打开运行时加载的某个第三方共享库；报错中给出了库名。",
        ),
        (
            "Install the named library in the version your wheel expects and add its folder to "
            "LD_LIBRARY_PATH (PATH on Windows); 'paddle-workbench check' lists what is found.",
            "安装报错中指出的库（与 wheel 要求的版本一致），并把目录加入 LD_LIBRARY_PATH（Windows 为 PATH）；"
            "'paddle-workbench check' 会列出已找到的库。",
        ),
    ),
    "libraries.driver_too_old": (
        ("GPU driver older than the CUDA runtime", "GPU 驱动版本低于 CUDA 运行时"),
        (
            "The NVIDIA driver supports an older CUDA than the one Paddle was built with.",
            "NVIDIA 驱动支持的 CUDA 版本低于 Paddle 编译所用的版本。",
        ),
        (
            "Upgrade the driver (nvidia-smi shows the CUDA version it supports), or install a Paddle wheel built "
            "for that CUDA version (e.g. paddlepaddle-gpu for cu118).",
            "升级驱动（nvidia-smi 显示其支持的 CUDA 版本），或安装对应该 CUDA 版本编译的 Paddle（如 cu118 版）。",
        ),
    ),
    "libraries.cudnn_version": (
        ("cuDNN version differs from the build", "cuDNN 版本与编译版本不一致"),
        (
            "The cuDNN found on this machine is not the one Paddle was compiled with; kernels may fail or be wrong.",
            "本机的 cuDNN 与 Paddle 编译时的版本不同，算子可能失败或结果异常。",
        ),
        (
            "Install the cuDNN version paddle.version.cudnn() reports, or a wheel built for your cuDNN.",
            "安装 paddle.version.cudnn() 报告的 cuDNN 版本，或安装与本机 cuDNN 匹配的 wheel。",
        ),
    ),
    # -- device ----------------------------------------------------------------------------------------
    "device.cpu_build": (
        ("GPU requested, but Paddle is the CPU build", "请求了 GPU，但安装的是 CPU 版 Paddle"),
        (
            "The code or config asks for a GPU, and the installed paddlepaddle was compiled without CUDA.",
            "代码或配置请求 GPU，而安装的 paddlepaddle 未编译 CUDA。",
        ),
        (
            "Use device: cpu (or paddle.set_device('cpu')), or uninstall paddlepaddle and install "
            "paddlepaddle-gpu for your CUDA version.",
            "改用 device: cpu（或 paddle.set_device('cpu')），或卸载 paddlepaddle 并安装对应 CUDA 版本的 "
            "paddlepaddle-gpu。",
        ),
    ),
    "device.no_gpu": (
        ("No GPU visible", "看不到 GPU"),
        (
            "The driver reports no CUDA device: none is installed, CUDA_VISIBLE_DEVICES hides them, or the "
            "container has no GPU access.",
            "驱动报告没有 CUDA 设备：未安装、被 CUDA_VISIBLE_DEVICES 隐藏，或容器未开放 GPU。",
        ),
        (
            "Run 'nvidia-smi'; check CUDA_VISIBLE_DEVICES; start containers with --gpus all; or train on CPU.",
            "运行 'nvidia-smi'；检查 CUDA_VISIBLE_DEVICES；容器用 --gpus all 启动；或改用 CPU 训练。",
        ),
    ),
    "device.bad_device_id": (
        ("Device id out of range", "设备编号超出范围"),
        (
            "A device id was requested that this process cannot see (CUDA_VISIBLE_DEVICES renumbers devices "
            "from 0).",
            "请求的设备编号本进程不可见（CUDA_VISIBLE_DEVICES 会从 0 重新编号）。",
        ),
        (
            "Use gpu:0..N-1 where N is the number of visible devices; with the launcher pass --devices instead "
            "of setting ids in code.",
            "使用 gpu:0..N-1（N 为可见设备数）；使用启动器时用 --devices 指定，不要在代码里写死编号。",
        ),
    ),
    "device.dtype_mismatch": (
        ("Tensor data type mismatch", "张量数据类型不匹配"),
        (
            "An operator received a tensor of another data type than it expects (often int64 labels vs float32, "
            "or float64 numpy arrays).",
            "算子收到了类型不符的张量（常见：int64 标签与 float32，或 numpy 的 float64 数组）。",
        ),
        (
            "Cast at the boundary: paddle.to_tensor(x, dtype='float32') or x.astype('int64'); numpy arrays "
            "default to float64.",
            "在数据入口处转换类型：paddle.to_tensor(x, dtype='float32') 或 x.astype('int64')；numpy 数组默认是 "
            "float64。",
        ),
    ),
    "device.place_mismatch": (
        ("Tensors on different devices", "张量位于不同设备"),
        (
            "One operator got inputs on different places (CPU and GPU, or two GPUs).",
            "同一个算子的输入位于不同设备（CPU 与 GPU，或两张 GPU）。",
        ),
        (
            "Create tensors after paddle.set_device(...), or move them with .cuda() / .cpu(); build the model "
            "and its inputs on the same device.",
            "在 paddle.set_device(...) 之后创建张量，或用 .cuda() / .cpu() 移动；模型与输入放在同一设备。",
        ),
    ),
    "device.illegal_memory_access": (
        ("GPU illegal memory access", "GPU 非法内存访问"),
        (
            "A kernel read or wrote outside its memory. Often an index out of range (labels, embedding ids), "
            "sometimes a kernel bug; the error surfaces later than its cause.",
            "某个核函数越界读写内存。常见原因是索引越界（标签、embedding id），也可能是算子缺陷；报错位置晚于真正原因。",
        ),
        (
            "Check label and index ranges first; rerun with CUDA_LAUNCH_BLOCKING=1 to see the failing operator.",
            "先检查标签与索引范围；设置 CUDA_LAUNCH_BLOCKING=1 重跑以定位出错的算子。",
        ),
    ),
    "device.segfault": (
        ("Segmentation fault", "段错误"),
        (
            "The process crashed in native code: a library mismatch, an invalid placement (e.g. Shard on a "
            "dimension the tensor lacks), or a bug in an operator.",
            "进程在本地代码中崩溃：库版本不匹配、非法切分（如对不存在的维度 Shard），或算子缺陷。",
        ),
        (
            "Run 'paddle-workbench check'; validate the sharding plan; rerun with FLAGS_call_stack_level=2 for "
            "the C++ stack and report it with 'paddle-workbench report'.",
            "运行 'paddle-workbench check'；校验切分方案；设置 FLAGS_call_stack_level=2 重跑获取 C++ 调用栈，"
            "并用 'paddle-workbench report' 生成报告。",
        ),
    ),
    # -- distributed -----------------------------------------------------------------------------------
    "distributed.nccl_timeout": (
        ("NCCL collective timed out", "NCCL 集合通信超时"),
        (
            "A rank waited for a collective that another rank never joined: usually that rank crashed, hangs, "
            "or took a different code path. It is a consequence — look for the first rank's own error.",
            "某个 rank 等待的集合通信另一个 rank 始终没有参与：通常那个 rank 已崩溃、卡住或走了不同分支。这是结果，"
            "请找最先出错的 rank 自己的报错。",
        ),
        (
            "Read the workerlog of the rank that failed first; make every rank run the same collectives in the "
            "same order; raise the timeout only for genuinely slow steps.",
            "查看最先失败的 rank 的 workerlog；确保所有 rank 以相同顺序执行相同的集合通信；只有步骤确实很慢时才调大超时。",
        ),
    ),
    "distributed.nccl_system_error": (
        ("NCCL system or network error", "NCCL 系统或网络错误"),
        (
            "NCCL could not set up or use its transport: a blocked port, the wrong network interface, a "
            "too-small /dev/shm in a container, or a peer that died.",
            "NCCL 无法建立或使用传输通道：端口被拦截、网卡选错、容器内 /dev/shm 太小，或对端已退出。",
        ),
        (
            "Rerun with NCCL_DEBUG=INFO; set NCCL_SOCKET_IFNAME to the right interface; start Docker with "
            "--shm-size=16g (or --ipc=host); check the firewall between nodes.",
            "设置 NCCL_DEBUG=INFO 重跑；用 NCCL_SOCKET_IFNAME 指定正确网卡；Docker 加 --shm-size=16g（或 "
            "--ipc=host）；检查节点间防火墙。",
        ),
    ),
    "distributed.nccl_invalid_usage": (
        ("NCCL invalid usage (two ranks on one GPU?)", "NCCL 用法错误（两个 rank 用了同一张卡？）"),
        (
            "NCCL refused the call; the usual cause is two ranks on the same GPU, or mismatched collective "
            "arguments between ranks.",
            "NCCL 拒绝了调用；常见原因是两个 rank 使用同一张 GPU，或各 rank 的集合通信参数不一致。",
        ),
        (
            "Launch with 'python -m paddle.distributed.launch --devices 0,1,...' and do not call set_device "
            "with a fixed id; check shapes passed to collectives match on every rank.",
            "使用 'python -m paddle.distributed.launch --devices 0,1,...' 启动，不要用固定编号调用 set_device；"
            "确认各 rank 传给集合通信的形状一致。",
        ),
    ),
    "distributed.gloo_timeout": (
        ("gloo collective timed out", "gloo 集合通信超时"),
        (
            "A CPU (gloo) rank waited for a peer that never arrived — the peer failed or hangs. A consequence: "
            "the first failing rank has the real error.",
            "CPU（gloo）rank 等待的对端始终未到——对端已失败或卡住。这是结果：最先失败的 rank 才有真正的报错。",
        ),
        (
            "Read the first failing rank's workerlog (log_dir/workerlog.N); make every rank run the same "
            "collectives.",
            "查看最先失败的 rank 的 workerlog（log_dir/workerlog.N）；确保各 rank 执行相同的集合通信。",
        ),
    ),
    "distributed.connection_lost": (
        ("Connection to a peer rank lost", "与对端 rank 的连接断开"),
        (
            "A peer closed its connection, almost always because that process exited after its own error.",
            "对端关闭了连接，几乎总是因为该进程自身出错后退出了。",
        ),
        (
            "Find the rank that exited first (its workerlog ends with a traceback) and fix that error.",
            "找出最先退出的 rank（其 workerlog 以 traceback 结尾），修复那个错误。",
        ),
    ),
    "distributed.connection_refused": (
        ("Cannot reach the master or a peer", "无法连接主节点或对端"),
        (
            "Nothing listens at the address a rank tries to reach: wrong --master address, a firewall, or the "
            "master not started yet.",
            "目标地址没有进程监听：--master 地址错误、防火墙拦截，或主节点尚未启动。",
        ),
        (
            "Check --master host:port on every node, that the port is open between nodes (nc -zv host port), "
            "and start rank 0's node first.",
            "检查各节点的 --master host:port，确认节点间端口可达（nc -zv host port），并先启动 rank 0 所在节点。",
        ),
    ),
    "distributed.port_in_use": (
        ("Port already in use", "端口已被占用"),
        (
            "The launcher or the store could not bind its port: another job (or a leftover process) holds it.",
            "启动器或 store 无法绑定端口：另一个任务（或残留进程）占用了它。",
        ),
        (
            "Stop the leftover process (ss -ltnp | grep PORT), or pass another --master port / "
            "PADDLE_MASTER port.",
            "结束残留进程（ss -ltnp | grep PORT），或换一个 --master 端口 / PADDLE_MASTER 端口。",
        ),
    ),
    "distributed.tcpstore_wait": (
        ("Ranks waiting at the rendezvous (TCPStore)", "各 rank 在会合点（TCPStore）等待"),
        (
            "Ranks are waiting for peers that never join: fewer processes than the job expects (a mesh or "
            "nnodes larger than what was launched), a node that did not start, or one that crashed at start-up.",
            "各 rank 在等待从未加入的对端：启动的进程少于预期（mesh 或 nnodes 大于实际启动数）、某节点未启动或启动即崩溃。",
        ),
        (
            "Make --nnodes × --nproc_per_node equal the world the code expects (ProcessMesh size); start every "
            "node; check each node's first workerlog lines.",
            "让 --nnodes × --nproc_per_node 等于代码期望的规模（ProcessMesh 大小）；启动所有节点；检查各节点 workerlog 开头。",
        ),
    ),
    "distributed.container_failed": (
        ("Launcher: a worker process failed", "启动器：某个工作进程失败"),
        (
            "paddle.distributed.launch saw a worker exit with an error and stopped the job. It is the tail, "
            "not the cause: the worker's own log holds the error.",
            "paddle.distributed.launch 发现某个工作进程出错退出并停止了任务。这只是结尾，不是原因：该进程自己的日志里有真正的错误。",
        ),
        (
            "Open the workerlog the line names (log_dir/workerlog.N) and diagnose it: "
            "'paddle-workbench diagnose --log log/workerlog.0'.",
            "打开该行指出的 workerlog（log_dir/workerlog.N）并诊断：'paddle-workbench diagnose --log log/workerlog.0'。",
        ),
    ),
    "distributed.comm_watchdog": (
        ("Comm watchdog: a collective started but never finished", "通信看门狗：集合通信已开始但未完成"),
        (
            "Paddle's communication watchdog found a collective that did not finish in time on this rank: a peer "
            "is missing, stuck or crashed. A consequence of a problem on another rank.",
            "Paddle 通信看门狗发现本 rank 的集合通信未按时完成：对端缺失、卡住或崩溃。这是其他 rank 问题的结果。",
        ),
        (
            "Compare 'seq:' across ranks to find the rank that is behind, then read that rank's log.",
            "比较各 rank 的 'seq:'，找出落后的 rank，再查看它的日志。",
        ),
    ),
    "distributed.placement_dim": (
        ("Invalid placement for the mesh or tensor", "切分方式与 mesh 或张量不符"),
        (
            "A placement names a mesh dimension or tensor dimension that does not exist.",
            "某个切分方式引用了不存在的 mesh 维度或张量维度。",
        ),
        (
            "Use the mesh's dim_names and one placement per mesh dimension; Shard(d) needs d < tensor ndim. "
            "'paddle-workbench plan validate' checks this before launch.",
            "使用 mesh 的 dim_names，每个 mesh 维度一个 placement；Shard(d) 要求 d 小于张量维数。"
            "'paddle-workbench plan validate' 可在启动前检查。",
        ),
    ),
    "distributed.reshard_unsupported": (
        ("Reshard or sharded layout not supported here", "此处不支持该重切分或切分布局"),
        (
            "The requested layout change (e.g. Shard(0)→Shard(1)) needs a communication kernel this device lacks, "
            "or a sharded dimension does not divide evenly across the mesh.",
            "所需的布局转换（如 Shard(0)→Shard(1)）依赖本设备没有的通信核，或被切分的维度不能被 mesh 整除。",
        ),
        (
            "Reshard through Replicate() on CPU, make sharded sizes divisible by the mesh size, or run on GPUs.",
            "在 CPU 上先转为 Replicate() 再切分；让被切分的维度能被 mesh 大小整除；或在 GPU 上运行。",
        ),
    ),
    # -- memory ----------------------------------------------------------------------------------------
    "memory.gpu_oom": (
        ("Out of GPU memory", "GPU 显存不足"),
        (
            "The model, activations and optimizer state need more device memory than is free (another process "
            "may hold some).",
            "模型、激活与优化器状态所需的显存超过可用量（可能有其他进程占用）。",
        ),
        (
            "Lower batch_size, enable AMP (float16/bfloat16) or recompute, free the GPU (nvidia-smi), or shard "
            "with dp.sharding_level.",
            "减小 batch_size，启用 AMP（float16/bfloat16）或重计算，释放 GPU（nvidia-smi），或使用 dp.sharding_level 切分。",
        ),
    ),
    "memory.cpu_oom": (
        ("Out of host memory", "主机内存不足"),
        (
            "A host allocation failed: the batch, the dataset held in memory or a huge tensor does not fit in RAM.",
            "主机内存分配失败：batch、常驻内存的数据集或某个巨大张量放不进内存。",
        ),
        (
            "Lower batch_size and DataLoader num_workers, stream the dataset instead of loading it whole, and "
            "check 'free -h'.",
            "减小 batch_size 和 DataLoader 的 num_workers，改为流式读取数据集，并查看 'free -h'。",
        ),
    ),
    "memory.killed": (
        ("Process killed (out of memory?)", "进程被杀死（内存不足？）"),
        (
            "The process received SIGKILL; with no other error this is usually the kernel's OOM killer.",
            "进程收到 SIGKILL；没有其他报错时，通常是内核的 OOM killer。",
        ),
        (
            "Check 'dmesg | grep -i oom'; lower batch_size and num_workers; resume from the last checkpoint "
            "(paddle-workbench train CONFIG --resume latest).",
            "查看 'dmesg | grep -i oom'；减小 batch_size 和 num_workers；从最近的检查点恢复"
            "（paddle-workbench train CONFIG --resume latest）。",
        ),
    ),
    "memory.dataloader_workers": (
        ("DataLoader workers died (shared memory?)", "DataLoader 工作进程退出（共享内存？）"),
        (
            "DataLoader worker processes exited: too little shared memory (/dev/shm, common in Docker), host "
            "memory, or an exception in the dataset code.",
            "DataLoader 工作进程退出：共享内存（/dev/shm，Docker 中常见）或主机内存不足，或数据集代码抛出异常。",
        ),
        (
            "Start Docker with --shm-size=16g, or set use_shared_memory=False / num_workers=0 to see the "
            "dataset's own error.",
            "Docker 加 --shm-size=16g，或设置 use_shared_memory=False / num_workers=0 以看到数据集本身的报错。",
        ),
    ),
    # -- numerics --------------------------------------------------------------------------------------
    "numerics.check_nan_inf": (
        ("NaN or Inf found in an operator", "算子中出现 NaN 或 Inf"),
        (
            "FLAGS_check_nan_inf found a non-finite value; the operator and tensor are named in the line.",
            "FLAGS_check_nan_inf 发现非有限值；该行给出了算子和张量名。",
        ),
        (
            "Lower the learning rate, add grad_clip, check inputs for NaN, and use float32 for the named op "
            "if it runs in float16.",
            "降低学习率，加入 grad_clip，检查输入是否含 NaN；若该算子在 float16 下运行，改用 float32。",
        ),
    ),
    "numerics.nan_loss": (
        ("Loss became NaN or Inf", "损失变成 NaN 或 Inf"),
        (
            "Training diverged: the learning rate is too high for the global batch, gradients exploded, or the "
            "data holds invalid values (empty boxes, bad labels).",
            "训练发散：学习率相对全局 batch 过大、梯度爆炸，或数据含非法值（空框、错误标签）。",
        ),
        (
            "Lower lr (scale it with the global batch), add warmup and grad_clip, and check the dataset "
            "('paddle-workbench dataset check').",
            "降低 lr（按全局 batch 缩放），加入 warmup 与 grad_clip，并检查数据集（'paddle-workbench dataset check'）。",
        ),
    ),
    # -- imports ---------------------------------------------------------------------------------------
    "imports.illegal_instruction": (
        ("CPU lacks instructions the wheel needs (AVX)", "CPU 不支持 wheel 所需指令（AVX）"),
        (
            "The installed Paddle uses CPU instructions (AVX/AVX2) this processor (or the VM's virtual CPU) "
            "does not have.",
            "安装的 Paddle 使用了本处理器（或虚拟机 CPU）不支持的指令（AVX/AVX2）。",
        ),
        (
            "Check 'grep -o avx /proc/cpuinfo | head -1'; expose the host CPU to the VM (cpu host-passthrough) "
            "or install a no-AVX build of Paddle.",
            "检查 'grep -o avx /proc/cpuinfo | head -1'；让虚拟机透传宿主 CPU（host-passthrough），或安装 no-AVX 版 Paddle。",
        ),
    ),
    "imports.glibcxx": (
        ("libstdc++ too old (GLIBCXX)", "libstdc++ 版本过旧（GLIBCXX）"),
        (
            "The C++ runtime found first is older than the one Paddle was built against (often an old conda "
            "or system libstdc++ shadowing a newer one).",
            "最先找到的 C++ 运行库比 Paddle 编译时的旧（常见：旧的 conda 或系统 libstdc++ 遮住了新版）。",
        ),
        (
            "conda install -c conda-forge libstdcxx-ng (inside conda), or upgrade the system's libstdc++; check "
            "LD_LIBRARY_PATH does not put an old one first.",
            "在 conda 中执行 conda install -c conda-forge libstdcxx-ng，或升级系统 libstdc++；确认 LD_LIBRARY_PATH "
            "没有把旧版放在前面。",
        ),
    ),
    "imports.glibc": (
        ("glibc too old for this wheel", "glibc 版本过旧"),
        (
            "The operating system's C library is older than the wheel requires.",
            "操作系统的 C 库版本低于该 wheel 的要求。",
        ),
        (
            "Use a newer OS or a container image (e.g. Ubuntu 22.04), or a Paddle release built for this glibc "
            "('ldd --version' shows yours).",
            "使用更新的系统或容器镜像（如 Ubuntu 22.04），或安装适配本机 glibc 的 Paddle 版本（'ldd --version' 查看）。",
        ),
    ),
    "imports.dll_load_failed": (
        ("Windows: a DLL Paddle needs did not load", "Windows：Paddle 所需的 DLL 加载失败"),
        (
            "A DLL libpaddle depends on is missing: the Visual C++ runtime, or (GPU builds) CUDA/cuDNN DLLs "
            "not on PATH.",
            "libpaddle 依赖的 DLL 缺失：Visual C++ 运行库，或（GPU 版）CUDA/cuDNN 的 DLL 不在 PATH 中。",
        ),
        (
            "Install the latest Microsoft Visual C++ Redistributable (x64); for GPU builds add CUDA's and cuDNN's "
            "bin folders to PATH; reopen the terminal.",
            "安装最新的 Microsoft Visual C++ 可再发行组件（x64）；GPU 版把 CUDA 与 cuDNN 的 bin 目录加入 PATH；重新打开终端。",
        ),
    ),
    "imports.no_paddle": (
        ("Paddle is not installed in this interpreter", "当前解释器中没有安装 Paddle"),
        (
            "The Python that ran the code has no paddle package — often a different interpreter or virtual "
            "environment than the one Paddle was installed into.",
            "运行代码的 Python 中没有 paddle 包——通常是解释器或虚拟环境与安装 Paddle 时的不同。",
        ),
        (
            "Run 'python -c \"import sys; print(sys.executable)\"' and install there: python -m pip install "
            "paddlepaddle (or paddlepaddle-gpu).",
            "运行 'python -c \"import sys; print(sys.executable)\"'，并在该解释器中安装：python -m pip install "
            "paddlepaddle（或 paddlepaddle-gpu）。",
        ),
    ),
    "imports.kit_missing": (
        ("A Paddle kit is not installed", "未安装对应的 Paddle 套件"),
        (
            "The code imports a kit (PaddleOCR, PaddleDetection, PaddleClas, PaddleSeg, PaddleX…) this "
            "interpreter does not have, or runs outside the kit's repository.",
            "代码导入的套件（PaddleOCR、PaddleDetection、PaddleClas、PaddleSeg、PaddleX…）在本解释器中不存在，"
            "或未在套件仓库目录下运行。",
        ),
        (
            "pip install the kit (e.g. pip install paddledet / paddleseg / paddleocr) or run from the kit's "
            "repository root after 'pip install -e .'.",
            "pip 安装该套件（如 pip install paddledet / paddleseg / paddleocr），或在套件仓库根目录执行 "
            "'pip install -e .' 后运行。",
        ),
    ),
    "imports.paddle_core": (
        ("Paddle's core library failed to load", "Paddle 核心库加载失败"),
        (
            "libpaddle exists but could not be loaded; the lines before this one name the missing dependency.",
            "libpaddle 存在但无法加载；此行之前的输出给出了缺失的依赖。",
        ),
        (
            "Read the ImportError above it; reinstall in a clean virtual environment "
            "(python -m pip install --force-reinstall paddlepaddle).",
            "查看其上方的 ImportError；在干净的虚拟环境中重装（python -m pip install --force-reinstall paddlepaddle）。",
        ),
    ),
    "imports.protobuf": (
        ("protobuf version incompatible", "protobuf 版本不兼容"),
        (
            "The installed protobuf does not match the generated code a package (Paddle, paddle2onnx, a kit) "
            "ships.",
            "已安装的 protobuf 与某个包（Paddle、paddle2onnx、套件）附带的生成代码不匹配。",
        ),
        (
            "Install the protobuf range the package pins (pip install 'protobuf<=3.20.3' for old kits), or set "
            "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python as a stop-gap.",
            "安装该包要求的 protobuf 版本（旧套件用 pip install 'protobuf<=3.20.3'），临时可设置 "
            "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python。",
        ),
    ),
    # -- numpy -----------------------------------------------------------------------------------------
    "numpy_compat.scalar_conversion": (
        ("numpy refuses to turn an array into a scalar", "numpy 拒绝把数组转换为标量"),
        (
            "float(t) / int(t) was called on a tensor or array with more than one element (or a 1-element, "
            "non-0-D one under numpy ≥ 2.4, which Paddle 3.3 does internally).",
            "对多于一个元素（numpy ≥ 2.4 下还包括非 0 维的单元素）的张量或数组调用了 float(t) / int(t)，Paddle 3.3 内部也会这样做。",
        ),
        (
            "Read scalars with t.item(); pin numpy<2.4 (pip install 'numpy<2.4') for Paddle 3.3.",
            "用 t.item() 读取标量；Paddle 3.3 请固定 numpy<2.4（pip install 'numpy<2.4'）。",
        ),
    ),
    "numpy_compat.removed_alias": (
        ("Removed numpy alias (np.int, np.float, …)", "numpy 已移除的别名（np.int、np.float 等）"),
        (
            "Code (often an older kit release) uses np.int / np.float / np.bool, removed in numpy 1.24.",
            "代码（常见于旧版套件）使用了 numpy 1.24 已移除的 np.int / np.float / np.bool。",
        ),
        (
            "Replace np.int with int (or np.int64), np.float with float; or upgrade the kit; or pin "
            "numpy<1.24 in that kit's environment.",
            "把 np.int 改为 int（或 np.int64），np.float 改为 float；或升级套件；或在该套件环境中固定 numpy<1.24。",
        ),
    ),
    "numpy_compat.abi": (
        ("Module built for another numpy major version", "模块是针对其他 numpy 主版本编译的"),
        (
            "A compiled extension was built against numpy 1.x and is imported under numpy 2 (or the reverse).",
            "某个编译扩展针对 numpy 1.x 构建，却在 numpy 2 下导入（或相反）。",
        ),
        (
            "pip install 'numpy<2' in this environment, or upgrade the extension named in the traceback.",
            "在当前环境执行 pip install 'numpy<2'，或升级 traceback 中提到的扩展。",
        ),
    ),
    # -- kernels ---------------------------------------------------------------------------------------
    "kernels.not_registered": (
        ("No kernel for this operator, device and data type", "该算子在此设备与数据类型下没有核函数"),
        (
            "The operator has no kernel for the requested place or dtype (e.g. float16 on CPU, an op missing on "
            "XPU/NPU).",
            "该算子没有对应设备或数据类型的核函数（如 CPU 上的 float16，XPU/NPU 上缺失的算子）。",
        ),
        (
            "Use a data type the message lists (float32), run that op on a supported device, or check the "
            "hardware matrix ('paddle-workbench compare' lists operators per path).",
            "改用报错中列出的数据类型（float32），在支持的设备上运行该算子，或查看硬件矩阵（'paddle-workbench compare' "
            "会列出各路径的算子）。",
        ),
    ),
    "kernels.op_not_registered": (
        ("Operator not registered in this build", "此版本未注册该算子"),
        (
            "The model uses an operator this Paddle build does not contain (a custom op not loaded, a model "
            "exported by another Paddle version, or an op this inference library leaves out).",
            "模型使用了此 Paddle 版本不包含的算子（未加载的自定义算子、其他 Paddle 版本导出的模型，或推理库裁剪掉的算子）。",
        ),
        (
            "Load the custom op library before loading the model, export and serve with the same Paddle version, "
            "or replace the op.",
            "在加载模型前加载自定义算子库，导出与部署使用相同的 Paddle 版本，或替换该算子。",
        ),
    ),
    "kernels.custom_not_ready": (
        ("Custom kernel has no matching Paddle operator", "自定义核函数没有对应的 Paddle 算子"),
        (
            "A custom device plug-in registers a kernel for an operator name this Paddle version does not have "
            "— the plug-in and Paddle versions do not match.",
            "自定义设备插件为此 Paddle 版本不存在的算子名注册核函数——插件与 Paddle 版本不匹配。",
        ),
        (
            "Install the custom-device plug-in release built for your Paddle version (pip show paddle-custom-*).",
            "安装与当前 Paddle 版本对应的自定义设备插件（pip show paddle-custom-*）。",
        ),
    ),
    "kernels.cpu_unimplemented": (
        ("Operator not implemented on CPU", "该算子在 CPU 上未实现"),
        (
            "This operator (often a collective such as reduce-scatter used by sharding stage 3) has GPU kernels "
            "only.",
            "该算子（常为 sharding stage 3 使用的 reduce-scatter 等集合通信）只有 GPU 实现。",
        ),
        (
            "Use a lower dp.sharding_level on CPU (0–2), or run on GPUs.",
            "在 CPU 上使用较低的 dp.sharding_level（0–2），或在 GPU 上运行。",
        ),
    ),
    "kernels.onnx_unsupported": (
        ("Operators not supported by the ONNX export", "ONNX 导出不支持某些算子"),
        (
            "paddle2onnx has no converter for the listed operators, so the model cannot be exported to ONNX.",
            "paddle2onnx 没有列出算子的转换器，模型无法导出为 ONNX。",
        ),
        (
            "Upgrade paddle2onnx, try another opset_version, or deploy with Paddle Inference instead of ONNX "
            "for this model.",
            "升级 paddle2onnx，换一个 opset_version，或改用 Paddle Inference 部署该模型。",
        ),
    ),
    "kernels.trt_unsupported": (
        ("Operator not supported by TensorRT", "TensorRT 不支持该算子"),
        (
            "TensorRT cannot run the named operator in this configuration.",
            "TensorRT 无法在当前配置下运行该算子。",
        ),
        (
            "Exclude it from TensorRT (exp_disable_tensorrt_ops) so Paddle runs it, or disable TensorRT.",
            "把它排除出 TensorRT（exp_disable_tensorrt_ops）由 Paddle 执行，或关闭 TensorRT。",
        ),
    ),
    # -- data ------------------------------------------------------------------------------------------
    "data.label_out_of_range": (
        ("Label outside 0…num_classes-1", "标签超出 0…num_classes-1"),
        (
            "A label is negative or not smaller than the number of classes: num_classes is wrong, labels start "
            "at 1, or segmentation masks hold 255 without ignore_index.",
            "某个标签为负或不小于类别数：num_classes 设置错误、标签从 1 开始，或分割标注含 255 却未设置 ignore_index。",
        ),
        (
            "Set num_classes to the number of lines in label.txt, renumber labels from 0, or set "
            "ignore_index=255; 'paddle-workbench dataset check' finds the bad lines.",
            "把 num_classes 设为 label.txt 的行数，标签从 0 重新编号，或设置 ignore_index=255；"
            "'paddle-workbench dataset check' 可找出错误行。",
        ),
    ),
    "data.label_not_int": (
        ("A label in a list file is not an integer", "列表文件中的标签不是整数"),
        (
            "A list line did not split into '<path> <int label>': a wrong delimiter, spaces in the path, or the "
            "fields swapped.",
            "列表行无法拆成 '<路径> <整数标签>'：分隔符错误、路径含空格，或字段顺序颠倒。",
        ),
        (
            "Write '<relative/path> <label>' with one separator (PaddleClas: delimiter in the config); "
            "'paddle-workbench dataset check' reports every bad line.",
            "按 '<相对路径> <标签>' 书写并只用一个分隔符（PaddleClas 可在配置中设 delimiter）；"
            "'paddle-workbench dataset check' 会报告所有错误行。",
        ),
    ),
    "data.ocr_line_parse": (
        ("PaddleOCR could not parse a label line", "PaddleOCR 无法解析标注行"),
        (
            "A recognition/detection list line is not '<path>\\t<label>' (spaces instead of a tab, an empty "
            "label, a missing image).",
            "识别/检测列表行不是 '<路径>\\t<标注>'（用了空格而不是 Tab、标注为空或图片缺失）。",
        ),
        (
            "Separate path and label with one tab; check the image exists relative to data_dir.",
            "路径与标注之间用一个 Tab 分隔；确认图片相对 data_dir 存在。",
        ),
    ),
    "data.det_no_records": (
        ("PaddleDetection found no annotations", "PaddleDetection 没有读到任何标注"),
        (
            "The annotation file has no usable records: wrong anno_path, image ids not matching, or every image "
            "without boxes filtered out.",
            "标注文件中没有可用记录：anno_path 错误、图片 id 不匹配，或所有图片因无框被过滤。",
        ),
        (
            "Check dataset_dir/anno_path/image_dir in the reader config and that 'annotations' and 'images' "
            "are non-empty; set allow_empty: true if empty images are intended.",
            "检查 reader 配置中的 dataset_dir/anno_path/image_dir，确认 'annotations' 与 'images' 非空；"
            "若有意包含空图，设置 allow_empty: true。",
        ),
    ),
    "data.seg_list_format": (
        ("PaddleSeg list file in the wrong format", "PaddleSeg 列表文件格式错误"),
        (
            "A train/val list line does not hold '<image> <label>' with the configured separator.",
            "train/val 列表行不是用配置的分隔符隔开的 '<图片> <标注>'。",
        ),
        (
            "Write one '<image_path> <label_path>' per line, or set separator in the dataset config.",
            "每行写一个 '<图片路径> <标注路径>'，或在数据集配置中设置 separator。",
        ),
    ),
    "data.paddlex_check": (
        ("PaddleX dataset check failed", "PaddleX 数据集校验失败"),
        (
            "PaddleX's dataset checker rejected the layout; the message names the file and problem.",
            "PaddleX 的数据集校验器拒绝了该目录结构；报错中给出了文件与问题。",
        ),
        (
            "Fix the named file ('paddle-workbench dataset check DIR' lists every bad line with a fix), then rerun "
            "the check (-o Global.mode=check_dataset).",
            "修正报错中的文件（'paddle-workbench dataset check DIR' 会列出所有错误行及修复方法），然后重新校验"
            "（-o Global.mode=check_dataset）。",
        ),
    ),
    "data.image_unreadable": (
        ("An image could not be read", "有图片无法读取"),
        (
            "An image file is missing, empty or corrupt (cv2.imread returned None, PIL cannot identify it).",
            "某个图片文件缺失、为空或已损坏（cv2.imread 返回 None，PIL 无法识别）。",
        ),
        (
            "Check the path in the list file is relative to the dataset root and the file opens; remove or "
            "replace broken images.",
            "确认列表文件中的路径相对数据集根目录且文件能打开；删除或替换损坏的图片。",
        ),
    ),
    "data.list_file_missing": (
        ("Dataset file not found", "找不到数据集文件"),
        (
            "A list, label or dictionary file the config names does not exist at that path (paths are "
            "relative to where the command runs, or to the dataset dir).",
            "配置中指定的列表、标签或字典文件不存在（路径相对于命令运行目录或数据集目录）。",
        ),
        (
            "Fix the path in the config or run from the directory it is relative to.",
            "修正配置中的路径，或在其相对的目录下运行。",
        ),
    ),
    # -- shapes ----------------------------------------------------------------------------------------
    "shapes.matmul": (
        ("matmul: inner dimensions differ", "matmul：内维度不一致"),
        (
            "A matrix product got X's last dimension ≠ Y's first (often a Linear layer's in_features not "
            "matching the flattened features, or num_classes changed).",
            "矩阵乘法中 X 的最后一维与 Y 的第一维不同（常见：Linear 的 in_features 与展平后的特征数不符，或改了 num_classes）。",
        ),
        (
            "Print the input shape before the layer and set in_features to it; after changing the input size, "
            "recompute the flattened size.",
            "在该层前打印输入形状并据此设置 in_features；改变输入尺寸后重新计算展平后的大小。",
        ),
    ),
    "shapes.broadcast": (
        ("Shapes cannot be broadcast", "形状无法广播"),
        (
            "An element-wise operation got two shapes that differ in a dimension where neither is 1 (often "
            "logits vs labels of another width).",
            "逐元素运算的两个形状在某一维不同且都不为 1（常见：logits 与标签宽度不同）。",
        ),
        (
            "Compare the two shapes in the message; reshape or unsqueeze so they match or one is 1.",
            "比较报错中的两个形状；用 reshape 或 unsqueeze 让它们相同或其中一个为 1。",
        ),
    ),
    "shapes.reshape": (
        ("reshape: element count differs", "reshape：元素个数不一致"),
        (
            "The target shape holds a different number of elements than the input (often a hard-coded batch "
            "size or feature size).",
            "目标形状的元素个数与输入不同（常见：写死的 batch 或特征大小）。",
        ),
        (
            "Use -1 for the batch dimension (x.reshape([-1, C])) and derive sizes from x.shape.",
            "batch 维使用 -1（x.reshape([-1, C])），其余大小从 x.shape 推导。",
        ),
    ),
    "shapes.conv_channels": (
        ("Conv: input channels differ from the filter", "卷积：输入通道数与卷积核不符"),
        (
            "The image has another number of channels than the first conv expects (grayscale vs RGB, or NHWC "
            "data given to an NCHW layer).",
            "图片通道数与第一层卷积期望的不同（灰度与 RGB，或把 NHWC 数据送入 NCHW 层）。",
        ),
        (
            "Convert images to the expected channels, transpose to NCHW, or set in_channels / data_format.",
            "把图片转换为期望的通道数，转置为 NCHW，或设置 in_channels / data_format。",
        ),
    ),
    "shapes.concat": (
        ("concat: shapes differ outside the axis", "concat：拼接轴以外的维度不一致"),
        (
            "Tensors concatenated along one axis must agree in every other dimension.",
            "沿某个轴拼接的张量在其他维度上必须一致。",
        ),
        (
            "Print the shapes of the inputs; pad, crop or resize them to agree.",
            "打印各输入的形状，通过填充、裁剪或缩放使其一致。",
        ),
    ),
    # -- checkpoints -----------------------------------------------------------------------------------
    "checkpoints.skip_loading_shape": (
        ("Weights skipped: shape mismatch", "权重被跳过：形状不匹配"),
        (
            "set_state_dict skipped a parameter whose saved shape differs (typically the classifier head after "
            "changing num_classes). Training goes on from random weights for it — silently.",
            "set_state_dict 跳过了保存形状不同的参数（通常是修改 num_classes 后的分类头），该参数从随机权重开始训练——且没有报错。",
        ),
        (
            "Expected for a new head when fine-tuning; otherwise load the checkpoint that matches the model "
            "config.",
            "微调更换分类头时属正常；否则请加载与模型配置一致的检查点。",
        ),
    ),
    "checkpoints.skip_loading_missing": (
        ("Weights skipped: not in the checkpoint", "权重被跳过：检查点中不存在"),
        (
            "A parameter of the model is absent from the loaded state dict (renamed layers, another "
            "architecture, or a prefix such as 'model.').",
            "模型的某个参数不在加载的 state dict 中（层被改名、架构不同，或多了 'model.' 之类前缀）。",
        ),
        (
            "Compare model.state_dict().keys() with the file's keys; strip or add the prefix; load the "
            "checkpoint of the same architecture.",
            "比较 model.state_dict().keys() 与文件中的键；去掉或加上前缀；加载相同架构的检查点。",
        ),
    ),
    "checkpoints.kit_shape_mismatch": (
        ("Kit: pretrained weights do not fit the model", "套件：预训练权重与模型不匹配"),
        (
            "The kit skipped parameters whose shape differs from the pretrained file (for PaddleOCR usually the "
            "character dictionary size, for PaddleDetection the class count).",
            "套件跳过了与预训练文件形状不同的参数（PaddleOCR 通常是字典大小，PaddleDetection 是类别数）。",
        ),
        (
            "Expected for a new head; otherwise make character_dict_path / num_classes match the pretrained "
            "model.",
            "更换头部时属正常；否则让 character_dict_path / num_classes 与预训练模型一致。",
        ),
    ),
    "checkpoints.truncated": (
        ("Checkpoint file truncated or corrupt", "检查点文件被截断或损坏"),
        (
            "A .pdparams/.pdopt file ends early — written while the process was killed or the disk was full.",
            "某个 .pdparams/.pdopt 文件提前结束——写入时进程被杀或磁盘已满。",
        ),
        (
            "Load the previous checkpoint; 'paddle-workbench train CONFIG --resume latest' picks the newest "
            "one whose manifest verifies.",
            "加载上一个检查点；'paddle-workbench train CONFIG --resume latest' 会选择清单校验通过的最新检查点。",
        ),
    ),
}

MESSAGES: dict[str, tuple[str, str]] = {
    # -- reading the input (exit code 2) ----------------------------------------------------------------
    "diagnose.input.empty": (
        "{source}: nothing to diagnose (the input is empty) — paste the error or pass a log file",
        "{source}：没有可诊断的内容（输入为空）——请粘贴报错或传入日志文件",
    ),
    "diagnose.input.binary": (
        "{source}: this is a binary file, not a log — pass the text log (logs.txt, workerlog.N)",
        "{source}：这是二进制文件而不是日志——请传入文本日志（logs.txt、workerlog.N）",
    ),
    "diagnose.input.too_large": (
        "{source}: {size} is more than diagnose reads ({limit}) — pass its end: tail -c 200M FILE | "
        "paddle-workbench diagnose --log -",
        "{source}：{size} 超过 diagnose 的读取上限（{limit}）——请传入其末尾：tail -c 200M FILE | "
        "paddle-workbench diagnose --log -",
    ),
    "diagnose.input.tail": (
        "{source}: {size} is more than diagnose reads at once — read its last {kept}, from line {line}; "
        "errors in the first {skipped} are not reported (pass that part on its own to check it)",
        "{source}：{size} 超过 diagnose 一次读取的上限——已读取其最后 {kept}（从第 {line} 行起）；"
        "前 {skipped} 中的错误不会报告（如需检查，请单独传入该部分）",
    ),
    "diagnose.input.over_total": (
        "{source}: not read — the inputs before it already fill what diagnose reads at once ({limit}); "
        "pass it on its own to check it",
        "{source}：未读取——之前的输入已达到 diagnose 一次读取的上限（{limit}）；如需检查，请单独传入",
    ),
    "diagnose.input.missing": ("{source}: no such file", "{source}：文件不存在"),
    "diagnose.input.is_dir": (
        "{source}: is a folder — pass a log file, or a run with --run",
        "{source}：这是目录——请传入日志文件，或用 --run 指定运行",
    ),
    "diagnose.input.unreadable": ("{source}: cannot read ({error})", "{source}：无法读取（{error}）"),
    "diagnose.input.gbk": (
        "{source}: not UTF-8; read as GB18030 (Chinese Windows console encoding)",
        "{source}：不是 UTF-8；已按 GB18030（中文 Windows 控制台编码）读取",
    ),
    "diagnose.input.replaced": (
        "{source}: not valid UTF-8; undecodable bytes were replaced",
        "{source}：不是有效的 UTF-8；无法解码的字节已被替换",
    ),
    "diagnose.input.none": (
        "nothing to read — pass --log FILE, --log - (standard input) or --run RUN",
        "没有输入——请传入 --log FILE、--log -（标准输入）或 --run RUN",
    ),
    "diagnose.input.no_run": (
        "no run '{ref}' in workspace {workspace} — list runs with 'paddle-workbench runs'",
        "工作区 {workspace} 中没有运行 '{ref}'——用 'paddle-workbench runs' 查看",
    ),
    "diagnose.input.run_no_logs": (
        "{run}: the run has no logs or traceback to diagnose",
        "{run}：该运行没有可诊断的日志或 traceback",
    ),
    # -- output ----------------------------------------------------------------------------------------
    "diagnose.cli.opt.log": (
        "Log or traceback to read ('-' reads standard input).",
        "要读取的日志或 traceback（'-' 表示标准输入）。",
    ),
    "diagnose.cli.opt.run": (
        "A run in the workspace (id, prefix or 'latest'): its traceback, logs.txt and per-rank logs.",
        "工作区中的运行（id、前缀或 'latest'）：读取其 traceback、logs.txt 与各 rank 日志。",
    ),
    "diagnose.cli.read": ("read {lines} lines from {sources}", "已读取 {sources} 的 {lines} 行"),
    "diagnose.cli.none": (
        "no known cause found — diagnose does not guess; run 'paddle-workbench check', or share the log with "
        "'paddle-workbench report RUN'",
        "未找到已知原因——diagnose 不做猜测；请运行 'paddle-workbench check'，或用 'paddle-workbench report RUN' 分享日志",
    ),
    "diagnose.cli.cause": ("cause: {text}", "原因：{text}"),
    "diagnose.cli.fix": ("fix: {text}", "修复：{text}"),
    "diagnose.cli.more": ("… {count} more lines like these", "……另有 {count} 行类似内容"),
    "diagnose.cli.consequence": ("(a consequence)", "（结果，非原因）"),
    "diagnose.cli.found": (
        "{count} known cause(s), most likely first",
        "找到 {count} 个已知原因，最可能的排在最前",
    ),
    "diagnose.source.traceback": ("traceback", "traceback"),
    # -- report bundle ---------------------------------------------------------------------------------
    "report.env.skipped": ("Environment check not run (--no-check).", "未运行环境检查（--no-check）。"),
    "report.env.stored": (
        "Environment verdicts reused from the stored check {file} (taken {taken}); pass --check to run it again.",
        "环境结论沿用已保存的检查 {file}（{taken}）；传入 --check 可重新检查。",
    ),
    "report.env.none": ("No stored environment check in this workspace.", "本工作区没有已保存的环境检查。"),
    "report.env.ran": ("Environment check run now for this report.", "已为本报告重新运行环境检查。"),
    "report.progress.env": ("collecting the environment verdicts…", "正在收集环境结论……"),
    "report.progress.diagnose": ("diagnosing the run's logs…", "正在诊断运行日志……"),
    "report.md.title": ("Paddle Workbench report: {run}", "Paddle Workbench 报告：{run}"),
    "report.md.summary": ("Status: **{status}**, last step {step}.", "状态：**{status}**，最后一步 {step}。"),
    "report.md.redacted": (
        "Redacted: secrets (passwords, tokens, keys, credentials in URLs and headers, private keys), host "
        "names, IP addresses and home paths were replaced.",
        "已脱敏：密钥类信息（密码、令牌、密钥、URL 与请求头中的凭据、私钥）、主机名、IP 地址和主目录路径已被替换。",
    ),
    "report.md.redactions": ("Taken out: {summary}.", "已移除：{summary}。"),
    "report.md.env_vars": (
        "Environment variables that change Paddle's behaviour (nothing else of the environment is included)",
        "影响 Paddle 行为的环境变量（不包含环境中的其他任何内容）",
    ),
    "report.redact.sep": (", ", "，"),
    "report.redact.kind.environment": (
        "{count} environment variable(s) of process-environment dumps",
        "进程环境转储中的 {count} 个环境变量",
    ),
    "report.redact.kind.secret_value": ("{count} secret-named value(s)", "{count} 个以密钥命名的值"),
    "report.redact.kind.auth_header": ("{count} auth header(s)", "{count} 个认证头"),
    "report.redact.kind.url_credentials": ("{count} URL credential(s)", "{count} 个 URL 凭据"),
    "report.redact.kind.private_key": ("{count} private key block(s) or line(s)", "{count} 个私钥块或私钥行"),
    "report.redact.kind.token": ("{count} token(s)", "{count} 个令牌"),
    "report.redact.kind.detected": (
        "{count} secret(s) found by detect-secrets",
        "detect-secrets 找到的 {count} 个密钥",
    ),
    "report.redact.kind.home_path": ("{count} home path(s)", "{count} 个主目录路径"),
    "report.redact.kind.user": ("{count} user name(s)", "{count} 个用户名"),
    "report.redact.kind.ip": ("{count} IP address(es)", "{count} 个 IP 地址"),
    "report.redact.kind.host": ("{count} host name(s)", "{count} 个主机名"),
    "report.cli.redacted": ("redacted {total}: {summary}", "已脱敏 {total} 处：{summary}"),
    "report.cli.exists": (
        "{path} already exists — a report never replaces a file; choose another --output (or leave it out "
        "for RUN/reports/report-<time>.md)",
        "{path} 已存在——报告从不覆盖文件；请换一个 --output（或省略它，写到 RUN/reports/report-<time>.md）",
    ),
    "report.md.diagnosis": ("Diagnosis", "诊断"),
    "report.md.failure": ("Failure", "失败信息"),
    "report.md.alerts": ("Alerts", "告警"),
    "report.md.environment": ("Environment", "环境"),
    "report.md.compare": ("Train/inference comparisons", "训练/推理对比"),
    "report.md.logs": ("Last lines of each log", "各日志的最后几行"),
    "report.md.config": ("Run config", "运行配置"),
    "report.md.fingerprint": ("Environment fingerprint (run.yaml)", "环境指纹（run.yaml）"),
    "report.md.none": ("None.", "无。"),
    "report.cli.opt.output": (
        "Where to write the markdown (the JSON goes beside it); refused if either exists; default: "
        "RUN/reports/report-<time>.md.",
        "markdown 的写入位置（JSON 写在旁边）；任一文件已存在则拒绝；默认：RUN/reports/report-<time>.md。",
    ),
    "report.cli.opt.redact": (
        "Remove secrets (passwords, tokens, keys, URL and header credentials, private keys), host names, IP "
        "addresses and home paths; prints a count of what went. Environment dumps are never included.",
        "移除密钥类信息（密码、令牌、密钥、URL 与请求头凭据、私钥）、主机名、IP 地址和主目录路径，并打印移除的数量。"
        "环境转储从不包含在内。",
    ),
    "report.cli.opt.check": (
        "Run the environment check now (--no-check: leave it out); default: reuse a stored one, else run it.",
        "现在运行环境检查（--no-check：不包含）；默认：沿用已保存的检查，没有则运行。",
    ),
    "report.cli.no_run": (
        "no run '{ref}' in workspace {workspace} — list runs with 'paddle-workbench runs'",
        "工作区 {workspace} 中没有运行 '{ref}'——用 'paddle-workbench runs' 查看",
    ),
    "report.cli.write_failed": ("cannot write {path}: {error}", "无法写入 {path}：{error}"),
    "report.cli.written": ("report: {md}\nJSON:   {json}", "报告：{md}\nJSON：{json}"),
}

for _id, ((_te, _tz), (_ce, _cz), (_fe, _fz)) in _SIGNATURES.items():
    MESSAGES[f"diagnose.{_id}.title"] = (_te, _tz)
    MESSAGES[f"diagnose.{_id}.cause"] = (_ce, _cz)
    MESSAGES[f"diagnose.{_id}.fix"] = (_fe, _fz)
