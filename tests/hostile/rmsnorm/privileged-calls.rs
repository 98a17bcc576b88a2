//! A hostile exercise file: tries every privileged kernel interface a root-run check used to
//! leave open (perf counters and uprobes, BPF, real-time scheduling, reboot's capability check,
//! keys, tracing, io_uring, userfaultfd, modules, kexec, clocks, the kernel log, another
//! terminal), a call number no kernel has, and reads its capability sets. It prints one
//! `probe NAME: …` line each; tests/it/privileged.rs asserts each is refused. The calls that would
//! change the machine (reboot's Ctrl-Alt-Del switch, kexec, modules, clocks) are made only when
//! the program holds no capability, so even run unconfined as root it changes nothing.
//! exercise: 02-norm
//! shows: probes done
//! hides: ALLOWED

use ndarray::ArrayD;
use std::os::raw::{c_int, c_long, c_void};
use tutor_kit::{reference, Float, NormError, Param};

extern "C" {
    fn syscall(number: c_long, ...) -> c_long;
}

#[cfg(target_arch = "x86_64")]
mod nr {
    pub const PERF_EVENT_OPEN: i64 = 298;
    pub const BPF: i64 = 321;
    pub const SCHED_SETSCHEDULER: i64 = 144;
    pub const SCHED_SETATTR: i64 = 314;
    pub const REBOOT: i64 = 169;
    pub const KEYCTL: i64 = 250;
    pub const ADD_KEY: i64 = 248;
    pub const PTRACE: i64 = 101;
    pub const PROCESS_VM_READV: i64 = 310;
    pub const IO_URING_SETUP: i64 = 425;
    pub const USERFAULTFD: i64 = 323;
    pub const INIT_MODULE: i64 = 175;
    pub const FINIT_MODULE: i64 = 313;
    pub const DELETE_MODULE: i64 = 176;
    pub const KEXEC_LOAD: i64 = 246;
    pub const SYSLOG: i64 = 103;
    pub const SETTIMEOFDAY: i64 = 164;
    pub const CLOCK_SETTIME: i64 = 227;
    pub const KEXEC_FILE_LOAD: i64 = 320;
    pub const REQUEST_KEY: i64 = 249;
    pub const PROCESS_VM_WRITEV: i64 = 311;
    pub const IO_URING_ENTER: i64 = 426;
    pub const IO_URING_REGISTER: i64 = 427;
}

#[cfg(target_arch = "aarch64")]
mod nr {
    pub const PERF_EVENT_OPEN: i64 = 241;
    pub const BPF: i64 = 280;
    pub const SCHED_SETSCHEDULER: i64 = 119;
    pub const SCHED_SETATTR: i64 = 274;
    pub const REBOOT: i64 = 142;
    pub const KEYCTL: i64 = 219;
    pub const ADD_KEY: i64 = 217;
    pub const PTRACE: i64 = 117;
    pub const PROCESS_VM_READV: i64 = 270;
    pub const IO_URING_SETUP: i64 = 425;
    pub const USERFAULTFD: i64 = 282;
    pub const INIT_MODULE: i64 = 105;
    pub const FINIT_MODULE: i64 = 273;
    pub const DELETE_MODULE: i64 = 106;
    pub const KEXEC_LOAD: i64 = 104;
    pub const SYSLOG: i64 = 116;
    pub const SETTIMEOFDAY: i64 = 170;
    pub const CLOCK_SETTIME: i64 = 112;
    pub const KEXEC_FILE_LOAD: i64 = 294;
    pub const REQUEST_KEY: i64 = 218;
    pub const PROCESS_VM_WRITEV: i64 = 271;
    pub const IO_URING_ENTER: i64 = 426;
    pub const IO_URING_REGISTER: i64 = 427;
}

/// Prints how a call ended: `errno N` when refused, `ALLOWED` when it worked.
fn report(name: &str, result: c_long) {
    match result {
        -1 => eprintln!("probe {name}: errno {}", std::io::Error::last_os_error().raw_os_error().unwrap_or(0)),
        value => eprintln!("probe {name}: ALLOWED (returned {value})"),
    }
}

fn call(name: &str, number: i64, args: [usize; 5]) {
    let result = unsafe { syscall(number as c_long, args[0], args[1], args[2], args[3], args[4]) };
    report(name, result);
}

fn open(name: &str, path: &str) {
    match std::fs::File::open(path) {
        Ok(_) => eprintln!("probe {name}: ALLOWED (opened {path})"),
        Err(e) => eprintln!("probe {name}: errno {}", e.raw_os_error().unwrap_or(0)),
    }
}

/// Every capability set as /proc says, printed; true when all are empty but the bounding set.
fn capabilities() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let mut held = false;
    for line in status.lines().filter(|line| line.starts_with("Cap")) {
        let (name, value) = line.split_once(':').unwrap_or((line, ""));
        eprintln!("capability set {name}: {}", value.trim());
        held |= name != "CapBnd" && u64::from_str_radix(value.trim(), 16).map_or(true, |bits| bits != 0);
    }
    !held
}

fn probe() {
    let powerless = capabilities();
    let ptr = |p: *const c_void| p as usize;
    // A system-wide software counter (pid -1, cpu 0): perf_event_attr, its first 64 bytes.
    let mut attr = [0u64; 9];
    attr[0] = 1 | (64 << 32); // type PERF_TYPE_SOFTWARE, size 64; config 0 = cpu clock
    call("perf_event_open system-wide", nr::PERF_EVENT_OPEN, [ptr(attr.as_ptr().cast()), usize::MAX, 0, usize::MAX, 0]);
    // A uprobe on this very program, as the attack on tutor's own binary did.
    let uprobe_type = std::fs::read_to_string("/sys/bus/event_source/devices/uprobe/type").unwrap_or_default();
    let path = b"/proc/self/exe\0";
    let mut attr = [0u64; 9];
    attr[0] = uprobe_type.trim().parse::<u64>().unwrap_or(7) | (72 << 32);
    attr[7] = path.as_ptr() as u64; // config1: the file
    attr[8] = 0; // config2: the offset
    call("perf_event_open uprobe", nr::PERF_EVENT_OPEN, [ptr(attr.as_ptr().cast()), 0, usize::MAX, usize::MAX, 0]);
    // BPF_PROG_LOAD of a socket filter `r0 = 0; exit`.
    let insns: [u64; 2] = [0xb7, 0x95];
    let license = b"GPL\0";
    let attr: [u64; 6] = [1 | (2 << 32), insns.as_ptr() as u64, license.as_ptr() as u64, 0, 0, 0];
    call("bpf prog load", nr::BPF, [5, ptr(attr.as_ptr().cast()), 48, 0, 0]);
    let priority: c_int = 99;
    call("sched_setscheduler FIFO 99", nr::SCHED_SETSCHEDULER, [0, 1, ptr((&priority as *const c_int).cast()), 0, 0]);
    // struct sched_attr: size 56, policy SCHED_FIFO, priority 99.
    let attr: [u32; 14] = [56, 1, 0, 0, 0, 0, 99, 0, 0, 0, 0, 0, 0, 0];
    call("sched_setattr FIFO 99", nr::SCHED_SETATTR, [0, ptr(attr.as_ptr().cast()), 0, 0, 0]);
    call("keyctl", nr::KEYCTL, [0, -3isize as usize, 1, 0, 0]);
    let (kind, description, payload) = (b"user\0", b"tutor-probe\0", b"x");
    let keyring = -2isize as usize;
    call("add_key", nr::ADD_KEY, [ptr(kind.as_ptr().cast()), ptr(description.as_ptr().cast()), ptr(payload.as_ptr().cast()), 1, keyring]);
    call("request_key", nr::REQUEST_KEY, [ptr(kind.as_ptr().cast()), ptr(description.as_ptr().cast()), 0, 0, 0]);
    call("ptrace traceme", nr::PTRACE, [0, 0, 0, 0, 0]);
    call("process_vm_readv", nr::PROCESS_VM_READV, [std::os::unix::process::parent_id() as usize, 0, 0, 0, 0]);
    call("process_vm_writev", nr::PROCESS_VM_WRITEV, [std::os::unix::process::parent_id() as usize, 0, 0, 0, 0]);
    let params = [0u8; 120];
    call("io_uring_setup", nr::IO_URING_SETUP, [1, ptr(params.as_ptr().cast()), 0, 0, 0]);
    call("io_uring_enter", nr::IO_URING_ENTER, [usize::MAX, 0, 0, 0, 0]);
    call("io_uring_register", nr::IO_URING_REGISTER, [usize::MAX, 0, 0, 0, 0]);
    call("userfaultfd", nr::USERFAULTFD, [0o2000000, 0, 0, 0, 0]);
    call("syslog", nr::SYSLOG, [10, 0, 0, 0, 0]);
    call("unlisted call 1000", 1000, [0; 5]);
    if powerless {
        let (magic1, magic2, cad_off) = (0xfee1_deadusize, 672_274_793, 0);
        call("reboot cad_off", nr::REBOOT, [magic1, magic2, cad_off, 0, 0]);
        call("kexec_load", nr::KEXEC_LOAD, [0, 0, 0, 0, 0]);
        call("kexec_file_load", nr::KEXEC_FILE_LOAD, [usize::MAX, usize::MAX, 0, 0, 0]);
        let empty = b"\0";
        call("init_module", nr::INIT_MODULE, [ptr(empty.as_ptr().cast()), 0, ptr(empty.as_ptr().cast()), 0, 0]);
        call("finit_module", nr::FINIT_MODULE, [usize::MAX, ptr(empty.as_ptr().cast()), 0, 0, 0]);
        let module = b"tutor_probe\0";
        call("delete_module", nr::DELETE_MODULE, [ptr(module.as_ptr().cast()), 0o4000, 0, 0, 0]);
        call("settimeofday", nr::SETTIMEOFDAY, [0, 0, 0, 0, 0]);
        call("clock_settime", nr::CLOCK_SETTIME, [0, 0, 0, 0, 0]);
    } else {
        eprintln!("probe machine-changing calls: skipped, the program holds capabilities");
    }
    open("open /dev/pts/0", "/dev/pts/0");
    open("open /dev/tty", "/dev/tty");
    eprintln!("probes done");
}

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(probe);
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        Ok(x.mapv(|_| 0.0))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
