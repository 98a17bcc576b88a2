//! The RMSNorm course's grading sentences, in Chinese and English side by side: its contracts'
//! failure messages and mistake titles. The framework's own (faults, panics) come from
//! `tutor_grade::text`, re-exported here.

pub use tutor_grade::text::*;

fn shape(s: &[usize]) -> String {
    format!("{s:?}")
}

/// A call on an input whose last axis is not `hidden`, for example `norm(x)` on `[2, 5]`.
pub(crate) fn call_on_wrong_width(call: &str, shape: &[usize], hidden: usize) -> Bi {
    Bi::new(
        format!("x.shape = {}、hidden_size = {hidden} 时的 {call}", self::shape(shape)),
        format!("{call} with x.shape = {}, hidden_size = {hidden}", self::shape(shape)),
    )
}

/// `backward` with an upstream gradient whose shape is not the input's.
pub(crate) fn backward_on_other_grad_shape(x: &[usize], grad_out: &[usize]) -> Bi {
    Bi::new(
        format!("x.shape = {}、grad_out.shape = {} 时的 backward(x, grad_out)", shape(x), shape(grad_out)),
        format!("backward(x, grad_out) with x.shape = {}, grad_out.shape = {}", shape(x), shape(grad_out)),
    )
}

/// A call on a 0-d input.
pub(crate) fn call_on_0d(call: &str) -> Bi {
    Bi::new(format!("零维 x 上的 {call}"), format!("{call} with a 0-d x"))
}

/// A gradient from `backward` held against central differences of the learner's `forward`.
pub(crate) fn against_central_differences(gradient: &str) -> Bi {
    Bi::new(
        format!("{gradient}（backward 对照 forward 的中心差分）"),
        format!("{gradient} (backward vs. central differences of forward)"),
    )
}

pub(crate) fn weight_shape(found: &[usize], hidden: usize) -> Bi {
    Bi::new(
        format!("weight 的形状是 {}，应为 [{hidden}]（每个特征通道一个缩放值）", shape(found)),
        format!("weight has shape {}, expected [{hidden}] (one scale per feature channel)", shape(found)),
    )
}

pub(crate) fn weight_not_ones(values: &str) -> Bi {
    Bi::new(
        format!("weight 的初值应精确全为 1（新层只做归一化），实际为 {values}"),
        format!("weight must start as exact ones (a fresh layer only normalises); it holds {values}"),
    )
}

pub(crate) fn weight_frozen() -> Bi {
    Bi::new(
        "weight 被冻结（requires_grad = false），梯度到不了它：请用可训练的参数",
        "weight is frozen (requires_grad = false), so no gradient reaches it: make it trainable",
    )
}

pub(crate) fn eps_changed(expected: f32, found: f32) -> Bi {
    Bi::new(
        format!("eps 应原样保存为 {expected:e}，实际为 {found:e}"),
        format!("eps must be kept exactly as {expected:e}, found {found:e}"),
    )
}

pub(crate) fn gradient_preset(grad: &str) -> Bi {
    Bi::new(
        format!("新建的层的 weight.grad 应为 None（还没有任何反向传播），实际为 Some({grad})"),
        format!("a fresh layer's weight.grad must be None (no backward pass has run yet); it is Some({grad})"),
    )
}

pub(crate) fn frozen_weight_got_gradient(grad: &str) -> Bi {
    Bi::new(
        format!("weight 被冻结（requires_grad = false），backward 之后它却有了梯度 {grad}：冻结的参数不应得到梯度"),
        format!("the weight is frozen (requires_grad = false), yet after backward it holds the gradient {grad}: a frozen parameter gets none"),
    )
}

pub(crate) fn not_accumulated(once: &str, twice: &str) -> Bi {
    Bi::new(
        format!("同一输入做两次 backward，weight.grad 应翻倍（累加，误差在 FP32 舍入之内）：一次后为 {once}，两次后为 {twice}"),
        format!("two backward passes on one input must double weight.grad, to FP32 rounding (gradients accumulate): {once} after one, {twice} after two"),
    )
}

pub(crate) fn no_weight_gradient() -> Bi {
    Bi::new("backward 之后 weight.grad 仍为 None", "weight.grad is still None after backward")
}

pub(crate) fn not_finite(what: &Bi) -> Bi {
    Bi::new(
        format!("{} 含有 NaN 或无穷大：零向量也必须得到有限结果（eps 在平方根内部）", what.zh),
        format!("{} holds NaN or infinity: a zero vector must stay finite (eps goes inside the square root)", what.en),
    )
}

/// Two roundings: the normalised values rounded to `dtype` before the weight.
pub(crate) fn rounded_twice(dtype: &str, mismatched: usize, total: usize, worst_ulps: i32) -> Bi {
    Bi::new(
        format!("{total} 个 {dtype} 输出中有 {mismatched} 个不等于 FP32 结果的正确舍入（最多差 {worst_ulps} ulp），但每个都在容差之内：舍入了两次。先把归一化结果舍入到 {dtype} 再乘权重是 Meta LLaMA 与 Hugging Face 的写法，是真实存在的选择；本课程的契约（教程的，也是 torch.nn.functional.rms_norm 组合实现的）只舍入一次：在 FP32 中乘以权重，最后用 from_f32 舍入。"),
        format!("{mismatched} of {total} {dtype} outputs differ from the correctly rounded FP32 result (by up to {worst_ulps} ulp), though every one is within the tolerance: they were rounded twice. Rounding the normalised values to {dtype} before the weight is Meta LLaMA's and Hugging Face's way, a real choice; this course's contract (the tutorial's, and that of torch.nn.functional.rms_norm's composite path) rounds once: multiply by the weight in FP32, then round with from_f32."),
    )
}

/// The whole forward computed in `dtype` instead of FP32.
pub(crate) fn computed_in(dtype: &str, mismatched: usize, total: usize) -> Bi {
    Bi::new(
        format!("{total} 个 {dtype} 输出中有 {mismatched} 个不等于 FP32 结果的正确舍入：整个 forward 是在 {dtype} 中算的（平方、求和、开方、乘法每一步都舍入）。应先转成 f32，在 FP32 中统计并乘以权重，最后用 from_f32 舍入一次。"),
        format!("{mismatched} of {total} {dtype} outputs differ from the correctly rounded FP32 result: the whole forward was computed in {dtype} (squares, sum, root and products each rounded). Convert to f32, take the statistics and the weight in FP32, and round once, at the end, with from_f32."),
    )
}

/// A backward that changed the weight's value (an optimiser step has no place in it).
pub(crate) fn weight_changed_by_backward(before: &str, after: &str) -> Bi {
    Bi::new(
        format!("backward 改变了 weight 的值：之前为 {before}，之后为 {after}。backward 只把梯度累加进 `weight.grad`，更新参数是优化器的事。"),
        format!("backward changed the weight's value: {before} before, {after} after. backward only accumulates into `weight.grad`; updating the parameter is the optimiser's job."),
    )
}

/// forward's output differs after a backward on the same input.
pub(crate) fn forward_changed_by_backward() -> Bi {
    Bi::new(
        "同一输入上，backward 之后 forward 的输出与之前不再逐位相同：backward 改变了层的状态",
        "after a backward, forward on the same input no longer gives the same bits: backward changed the layer's state",
    )
}

/// f64 outputs of forward that are not all f32 values: the product was not taken in FP32.
pub(crate) fn product_not_in_fp32(off: usize, total: usize) -> Bi {
    Bi::new(
        format!("f64 输入的 forward 输出中有 {off}/{total} 个值不是 f32 值：乘以权重应在 FP32 中进行，再只舍入一次（对 f64 是精确的扩展）"),
        format!("{off} of forward's {total} f64 outputs are not f32 values: the product with the weight is taken in FP32, then rounded once (for f64, an exact widening)"),
    )
}

/// dx of a half type that is not the correctly rounded value often enough.
pub(crate) fn dx_rounded_more_than_once(dtype: &str, off: usize, total: usize, worst_ulps: i64) -> Bi {
    Bi::new(
        format!("{total} 个 {dtype} 的 dx 中有 {off} 个不等于 f64 结果的正确舍入（最多差 {worst_ulps} ulp）。应在 f64 中计算全部统计量与 dx，最后用 `T::from_f64` 只舍入一次。"),
        format!("{off} of {total} {dtype} dx values differ from the correctly rounded f64 result (by up to {worst_ulps} ulp). Compute every statistic and dx in f64 and round once, at the end, with `T::from_f64`."),
    )
}

/// dx values that are exact ties of `dtype`, not rounded to even.
pub(crate) fn dx_ties(dtype: &str, off: usize, total: usize) -> Bi {
    Bi::new(
        format!("{total} 个 {dtype} 的 dx 都恰好落在两个相邻值正中，其中 {off} 个没有舍入到偶数。用 `T::from_f64` 舍入：就近，平局取偶。"),
        format!("All {total} {dtype} dx values lie exactly halfway between two neighbours, and {off} are not rounded to even. Round with `T::from_f64`: to nearest, ties to even."),
    )
}

/// dx compared row by row, each row in units of its terms' scale.
pub(crate) fn dx_per_term_scale() -> Bi {
    Bi::new(
        "dx（每行除以该行两项的尺度 max|r·h| + max|r·n|·mean|h ⊙ n|）",
        "dx (each row divided by its terms' scale, max|r·h| + max|r·n|·mean|h ⊙ n|)",
    )
}

/// A backward on one row of `width` features that had not answered after `limit_secs`.
pub(crate) fn too_slow_at_width(width: usize, limit_secs: f64) -> Bi {
    Bi::new(
        format!(
            "backward(x, grad_out) 在一行 {width} 个特征上 {limit_secs} 秒内没有完成：推导出的梯度只需对这一行扫几遍（几毫秒）；\
             逐元素的数值求导（每个特征跑一次 forward）要 D² 次运算"
        ),
        format!(
            "backward(x, grad_out) on one row of {width} features did not finish in {limit_secs} s: a derived gradient makes a \
             few passes over the row (milliseconds); differentiating element by element (a forward per feature) takes D² \
             steps"
        ),
    )
}

/// The weight gradient of an f64 backward with `off` of `total` values a neighbour of the f64 sum
/// rounded once to f32.
pub(crate) fn weight_gradient_not_from_f64(off: usize, total: usize) -> Bi {
    Bi::new(
        format!(
            "f64 backward 的 weight.grad 中有 {off} / {total} 个值不是 f64 结果只舍入一次到 f32 的值：\
             权重梯度要由 f64 的 n 和 g 在 f64 中求和，最后只转一次 f32"
        ),
        format!(
            "weight.grad of an f64 backward: {off} of {total} values are not the f64 result rounded once to f32: the \
             weight's gradient is summed in f64 from the f64 n and g, and narrowed to f32 once"
        ),
    )
}

// What the course says under the compile errors each exercise is likely to meet, in that
// exercise's own terms: the names it has in scope and the conversion it needs (into f32 for the
// statistics, back to `T` for the result). tutor recognises the errors; the course writes the
// notes.
tutor_grade::coaching! {
    // 01-weight: `hidden_size` and `eps` are in scope, no input `x` and no `T`.
    "01-weight", Dimension,
        "`Param::trainable` 需要一维的 `Array1<f32>`（每个特征一个值），不是 `ArrayD`：用 `Array1::ones(hidden_size)`（在文件开头加上 `use ndarray::Array1;`）。",
        "`Param::trainable` takes a one-dimensional `Array1<f32>` (one value per feature), not an `ArrayD`: use `Array1::ones(hidden_size)` (with `use ndarray::Array1;` at the top of the file).";
    "01-weight", MixedFloat,
        "`new` 里没有 `T`：权重始终是 f32（`Param` 保存 FP32 主副本），由 `hidden_size` 个 1 组成。",
        "`new` has no `T`: the weight is always f32 (`Param` keeps the FP32 master copy), `hidden_size` ones.";
    // 02-norm: `x: &ArrayD<T>` in, `ArrayD<f32>` out: the conversion goes into f32.
    "02-norm", MixedFloat,
        "`T` 与 `f32` 不能直接混合运算。先用 `to_f32()` 把输入转成 f32：`let x32 = x.mapv(|v| v.to_f32());`，之后的统计量都在 `x32` 上、在 FP32 中计算。`norm` 返回 `ArrayD<f32>`，不需要转回 `T`。给 `T` 加上 `Div<f32>` 或 `Mul<f32>` 约束是走错了路：那样运算会在 `T` 中进行（f16 会溢出），而不是在 FP32 中。",
        "`T` and `f32` do not mix in arithmetic. Convert the input into f32 first, with `to_f32()`: `let x32 = x.mapv(|v| v.to_f32());`, then compute every statistic on `x32`, in FP32. `norm` returns an `ArrayD<f32>`: nothing goes back to `T`. Adding a `Div<f32>` or `Mul<f32>` bound to `T` is the wrong road: the arithmetic would then run in `T` (f16 overflows), not in FP32.";
    "02-norm", ElementType,
        "`norm` 返回 `ArrayD<f32>`：结果留在 f32 中。用 `x.mapv(|v| v.to_f32())` 把输入转成 f32 后再计算，不要把结果转回 `T`。",
        "`norm` returns an `ArrayD<f32>`: the result stays in f32. Compute on `x.mapv(|v| v.to_f32())`, and do not turn the result back into `T`.";
    // 03-forward: `self.norm(x)?` gives f32; the result goes back to `T`, rounded once.
    "03-forward", CastToGeneric,
        "Rust 不允许 `v as T`（`T` 是泛型，不是基本类型）。用 `Float` 的 `T::from_f32(v)` 把 f32 舍入到 `T`：`scaled.mapv(T::from_f32)`，在乘以权重之后、只做这一次。",
        "Rust does not allow `v as T` (`T` is generic, not a primitive type). `Float` gives `T::from_f32(v)`, which rounds an f32 to `T`: `scaled.mapv(T::from_f32)`, once, after the weight.";
    "03-forward", ElementType,
        "`forward` 返回 `ArrayD<T>`，而 `self.norm(x)?` 乘以权重得到的是 `ArrayD<f32>`。最后一步把它舍入回输入的类型：`scaled.mapv(T::from_f32)`。",
        "`forward` returns an `ArrayD<T>`, and `self.norm(x)?` times the weight is an `ArrayD<f32>`. Round it back to the input's type as the last step: `scaled.mapv(T::from_f32)`.";
    "03-forward", MixedFloat,
        "`T` 与 `f32` 不能直接混合运算。全部在 f32 中计算：`self.norm(x)?`（已是 f32）乘以 `self.weight.value`（f32），最后用 `T::from_f32` 转回 `T`。给 `T` 加上 `Div<f32>` 或 `Mul<f32>` 约束是走错了路：那样运算会在 `T` 中进行（f16 会溢出），而不是在 FP32 中。",
        "`T` and `f32` do not mix in arithmetic. Compute everything in f32: `self.norm(x)?` (f32 already) times `self.weight.value` (f32), then go back with `T::from_f32`. Adding a `Div<f32>` or `Mul<f32>` bound to `T` is the wrong road: the arithmetic would then run in `T` (f16 overflows), not in FP32.";
    "03-forward", Dimension,
        "`self.weight.value` 是 `Array1<f32>`，`self.norm(x)?` 是 `ArrayD<f32>`：用引用相乘 `&normalized * &self.weight.value`，ndarray 会沿最后一个轴广播，结果仍是 `ArrayD`。",
        "`self.weight.value` is an `Array1<f32>` and `self.norm(x)?` an `ArrayD<f32>`: multiply references, `&normalized * &self.weight.value`, and ndarray broadcasts along the last axis, giving an `ArrayD`.";
    // 04-backward: `x` and `grad_out` go into f64, `dx` comes back as `T`, the weight's gradient
    // is summed in f64 and accumulated as an `Array1<f32>`.
    "04-backward", CastToGeneric,
        "Rust 不允许 `v as T`（`T` 是泛型，不是基本类型）。用 `T::from_f64(v)` 把 f64 舍入到 `T`：`dx.mapv(T::from_f64)`，最后只做这一次。",
        "Rust does not allow `v as T` (`T` is generic, not a primitive type). Use `T::from_f64(v)`, which rounds an f64 to `T`: `dx.mapv(T::from_f64)`, once, at the end.";
    "04-backward", ElementType,
        "`backward` 返回 `ArrayD<T>`：`dx` 在 f64 中计算，返回前用 `dx.mapv(T::from_f64)` 转回 `T`；`accumulate_grad` 接收的是 f32 的 `Array1`（`dweight.mapv(|v| v as f32)`）。",
        "`backward` returns an `ArrayD<T>`: compute `dx` in f64 and return `dx.mapv(T::from_f64)`; `accumulate_grad` takes an f32 `Array1` (`dweight.mapv(|v| v as f32)`).";
    "04-backward", MixedFloat,
        "`T` 与 `f32` 不能直接混合运算。进入时转成 f64：`x.mapv(|v| v.to_f64())` 与 `grad_out.mapv(|v| v.to_f64())`；返回时转回：`dx.mapv(T::from_f64)`。给 `T` 加上 `Div<f32>` 或 `Mul<f32>` 约束是走错了路：那样运算会在 `T` 中进行（f16 会溢出），而不是在 f64 中。",
        "`T` and `f32` do not mix in arithmetic. Go into f64 on the way in, `x.mapv(|v| v.to_f64())` and `grad_out.mapv(|v| v.to_f64())`, and back on the way out, `dx.mapv(T::from_f64)`. Adding a `Div<f32>` or `Mul<f32>` bound to `T` is the wrong road: the arithmetic would then run in `T` (f16 overflows), not in f64.";
    "04-backward", Dimension,
        "权重的梯度是一维的 `Array1`（每个特征一个值，在 f64 中求和），`dx` 与 `x` 同形（`ArrayD`）。对所有行求和得到权重梯度：`Array1::<f64>::zeros(self.weight.len())` 逐行累加，或对前面各轴用 `sum_axis`。",
        "The weight's gradient is a one-dimensional `Array1` (one value per feature, summed in f64); `dx` has `x`'s shape (`ArrayD`). Sum over the rows for the weight's gradient: add each row into `Array1::<f64>::zeros(self.weight.len())`, or `sum_axis` over the leading axes.";
}
