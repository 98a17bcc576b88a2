//! Known mistakes: each with its title and the hint that addresses it, in one place, and what the
//! mistakes that can be computed would output on a given input (the candidates that
//! [`crate::evidence`] holds the learner's output against).

use ndarray::{ArrayD, Axis};
use tutor_grade::rounding::{Rounding, Spacing};
use tutor_kit::{reference, Float, Param};

pub use tutor_grade::Mistake;

pub mod backward_fit;
pub mod backward_formulas;
mod fast_rsqrt;
mod output;
mod properties;
pub mod scale_fit;
mod weight_kept;

pub use properties::{by_property, state_kept};

tutor_grade::mistakes! {
    "zero-weight", "01-weight", 2,
        "权重初值为 0：输出恒为 0", "the weight starts at zeros: the output is always zero";
    "random-weight", "01-weight", 2,
        "权重初值不是 1", "the weight does not start at ones";
    "frozen-weight", "01-weight", 3,
        "权重被冻结，梯度到不了它", "the weight is frozen, so no gradient reaches it";
    "scalar-weight", "01-weight", 1,
        "所有通道共用一个标量权重，而不是逐通道的 [D] 权重", "one scalar weight for every channel instead of a per-channel [D] weight";
    "eps-changed", "01-weight", 3,
        "new 没有原样保存传入的 eps（被截断、取整或换成了默认值）", "new does not keep the eps it is given (clamped, rounded or replaced by a default)";
    "gradient-preset", "01-weight", 3,
        "新建的权重已经带有梯度（应为 None，直到第一次反向传播）", "a fresh weight already holds a gradient (it must be None until the first backward pass)";
    "layernorm", "02-norm", 2,
        "先减去了均值：那是 LayerNorm，不是 RMSNorm", "the mean is subtracted first: that is LayerNorm, not RMSNorm";
    "wrong-axis", "02-norm", 2,
        "统计量沿错误的轴计算（第一维而不是最后一维）", "statistics along the wrong axis (the first, not the last)";
    "whole-tensor", "02-norm", 2,
        "统计量取自整个张量，把不同词元混在了一起", "statistics over the whole tensor, mixing tokens together";
    "rows-mixed", "02-norm", 2,
        "一行的结果随其他行改变：统计量把不同词元混在了一起", "one row's result changes when another row changes: the statistics mix tokens";
    "keepdim-forgotten", "02-norm", 2,
        "求均值后没有把这一维放回（缺少 `insert_axis`）：[..., D] 与 [...] 无法正确广播", "the reduced axis is not put back (no `insert_axis`): [..., D] and [...] do not broadcast as meant";
    "rank-assumed", "02-norm", 2,
        "代码假定了输入的维数（例如只支持三维）：一维或四维输入出错", "the code assumes the input's rank (three axes, say): one- or four-dimensional inputs fail";
    "eps-outside-sqrt", "02-norm", 3,
        "eps 加在了平方根外面", "eps is added outside the square root";
    "no-eps", "02-norm", 3,
        "没有加 eps：全零行得到 0 / 0 = NaN", "no eps at all: a zero row gives 0 / 0 = NaN";
    "eps-ignored", "02-norm", 3,
        "用了写死的常数而不是本层的 `self.eps`", "a fixed constant is used instead of the layer's own `self.eps`";
    "half-precision-statistics", "02-norm", 1,
        "统计量（平方、求和或均方）在 f16/bf16 中计算或被舍入到 f16/bf16，而不是留在 FP32（平方或和溢出为无穷大、输出变成 0，累加停滞，或精度丢失）", "the statistics (squares, their sum, or the mean square) computed in or rounded to f16/bf16 instead of kept in FP32 (a square or the sum overflows to infinity and the output becomes 0, the sum stalls, or precision is lost)";
    "sum-not-mean", "02-norm", 2,
        "用了平方和而不是平方的均值（结果整体约小了 sqrt(D) 倍）", "the sum of squares instead of their mean (outputs about sqrt(D) times too small)";
    "d-minus-one", "02-norm", 2,
        "均值除以了 D − 1 而不是 D（那是样本方差的修正，这里不需要）", "the mean divides by D − 1 instead of D (a sample-variance correction that does not belong here)";
    "abs-not-square", "02-norm", 2,
        "用 |x| 代替了 x²：那不是均方根", "|x| where x² belongs: that is not the root mean square";
    "not-scale-invariant", "02-norm", 3,
        "输出不是尺度不变的（norm(c·x) ≠ norm(x)）：这不是归一化，检查开方与除法", "the output is not scale-invariant (norm(c·x) ≠ norm(x)): not a normalisation; check the square root and the division";
    "not-odd", "02-norm", 3,
        "输出不是奇函数（norm(−x) ≠ −norm(x)）：符号丢了，或者加了多余的项", "the output is not odd (norm(−x) ≠ −norm(x)): a sign is lost, or something extra is added";
    "state-kept-between-calls", "02-norm", 3,
        "结果取决于之前的调用：同形的另一个输入在前一次调用之后得到错误的结果（单独计算同样的行却是对的），或同一输入两次得到不同的结果：调用之间保存了结果、统计量、缓冲区或（前一层的）权重", "the answer depends on earlier calls: another input of the same shape, asked after a first one, comes out wrong (the same rows alone come out right), or one input asked twice gets two answers: a result, statistics, a buffer or (an earlier layer's) weight kept between calls";
    "nan-replaced", "02-norm", 2,
        "输入中的 NaN 被跳过或替换了：它应该留在自己那一行的结果里（backward 中也要进入权重的梯度）", "a NaN in the input is skipped or replaced: it must stay in its own row's output (and, in backward, reach the weight's gradient)";
    "weight-ignored", "03-forward", 2,
        "没有乘以权重", "the weight is never multiplied in";
    "weight-transposed-or-reversed", "03-forward", 2,
        "权重乘到了错误的位置（顺序颠倒，或沿倒数第二维广播）", "the weight is applied in the wrong places (reversed, or broadcast along the second-last axis)";
    "forward-without-eps", "03-forward", 1,
        "forward 自己重算统计量并漏掉了 eps：应调用本层的 `norm`", "forward recomputes the statistics itself and leaves eps out: call this layer's own `norm`";
    "gemma-one-plus-weight", "03-forward", 2,
        "乘的是 (1 + weight)（Gemma 的写法，权重存为相对 1 的偏移）：本课程的 weight 直接相乘，初值为 1", "multiplies by (1 + weight) (Gemma's convention, a weight stored as an offset from one): this course multiplies by weight itself, which starts at ones";
    "weight-before-normalise", "03-forward", 2,
        "先乘权重再归一化：统计量算在了 x ⊙ weight 上，应先对 x 归一化再乘权重", "the weight is applied before normalising: the statistics are taken over x ⊙ weight; normalise x first, then multiply by the weight";
    "eps-squared", "02-norm", 3,
        "加的是 eps²（或把 eps 当成了标准差）：应在平方根内加 eps 本身", "eps² is added (eps taken as a standard deviation): add eps itself inside the root";
    "eps-over-d", "02-norm", 3,
        "eps 被除以了 D（例如加到了平方和上再求均值）：应加到均值上", "eps is divided by D (added to the sum of squares before dividing, say): add it to the mean";
    "double-rounding", "03-forward", 3,
        "先把归一化结果舍入到输入类型再乘权重：舍入了两次（Meta LLaMA 与 Hugging Face 的写法；本课程的契约只舍入一次）", "the normalised values are rounded to the input type before the weight: two roundings (Meta LLaMA's and Hugging Face's choice; this course's contract rounds once)";
    "mean-term-dropped", "04-backward", 3,
        "dx 漏掉了均值项：把 r 当成了常数（r 依赖这一行的每个 x）", "dx drops the mean term: r is treated as a constant (it depends on every x of the row)";
    "mean-term-wrong-sign", "04-backward", 3,
        "dx 的均值项符号反了：应为 r · (h − n · mean(h ⊙ n))", "dx's mean term has the wrong sign: it is r · (h − n · mean(h ⊙ n))";
    "mean-over-wrong-count", "04-backward", 3,
        "dx 的均值项除错了数（D − 1、求和而非均值，或除了两次 D）", "dx's mean term divides by the wrong count (D − 1, a sum instead of a mean, or D twice)";
    "mean-term-wrong-scale", "04-backward", 3,
        "dx 的均值项系数不对：应为 r · (h − n · mean(h ⊙ n))，系数恰为 1", "dx's mean term has the wrong coefficient: it is r · (h − n · mean(h ⊙ n)), with coefficient exactly 1";
    "outer-r-missing", "04-backward", 3,
        "dx 少了外层的 r：应为 r · (h − n · mean(h ⊙ n))，不是 h − n · mean(h ⊙ n)", "dx lacks the outer r: it is r · (h − n · mean(h ⊙ n)), not h − n · mean(h ⊙ n)";
    "outer-r-squared", "04-backward", 3,
        "dx 多乘了一次 r（外层是 r² 而不是 r）", "dx is multiplied by r once too often (r² outside instead of r)";
    "mean-term-wrong-power", "04-backward", 3,
        "dx 均值项里 r 的次数不对：n = x · r 写成了 x，或多乘了 r（应为 r · n · mean(h ⊙ n) = r³ · x · mean(h ⊙ x)）", "the mean term of dx has the wrong power of r: n = x · r written as x, or an extra r (it is r · n · mean(h ⊙ n) = r³ · x · mean(h ⊙ x))";
    "weight-missing-from-h", "04-backward", 3,
        "dx 里的 h 没有乘权重（一项或两项都没有）：h = g ⊙ weight，不是 g", "h in dx lacks the weight (in one term or in both): h = g ⊙ weight, not g";
    "backward-gemma-one-plus", "04-backward", 3,
        "dx 里的 h 用了 g ⊙ (1 + weight)（Gemma 的写法）：本课程的 h = g ⊙ weight", "h in dx is g ⊙ (1 + weight) (Gemma's convention): in this course h = g ⊙ weight";
    "backward-r-rounded-to-t", "04-backward", 1,
        "r 被舍入到了输入类型（f16/bf16）再使用：backward 的每个中间量都应留在 f64 中，只有 dx 最后舍入一次", "r is rounded to the input's type (f16/bf16) before use: every intermediate of the backward stays in f64, and only dx is rounded, once, at the end";
    "weight-gradient-from-x", "04-backward", 2,
        "权重的梯度用了 x 而不是 n = x · r：应为 Σ g ⊙ n", "the weight's gradient uses x instead of n = x · r: it is Σ g ⊙ n";
    "weight-gradient-from-h", "04-backward", 2,
        "权重的梯度用了 h = g ⊙ weight 而不是 g：应为 Σ g ⊙ n", "the weight's gradient uses h = g ⊙ weight instead of g: it is Σ g ⊙ n";
    "eps-dropped-from-r", "04-backward", 3,
        "backward 里的 r 没有加 eps：全零行或极小值的梯度变成 NaN 或无穷大", "r in backward leaves eps out: a zero or tiny row's gradient becomes NaN or infinite";
    "weight-gradient-not-summed", "04-backward", 2,
        "权重的梯度没有对所有行（批次与序列）求和", "the weight's gradient is not summed over every row (batch and sequence)";
    "frozen-weight-gets-gradient", "04-backward", 2,
        "冻结的权重（requires_grad = false）在 backward 后有了梯度：用 `accumulate_grad`，它会跳过冻结的参数", "a frozen weight (requires_grad = false) gets a gradient from backward: use `accumulate_grad`, which leaves a frozen parameter alone";
    "gradient-overwritten", "04-backward", 2,
        "weight.grad 被覆盖而不是累加：两次 backward 应该相加", "weight.grad is overwritten instead of accumulated: two backward passes must add up";
    "f64-backward-in-fp32", "04-backward", 1,
        "f64 的 backward 全部或部分（如 r，或最后的类型转换）在 FP32 中进行：dx 只有 FP32 的精度；契约要求在 f64 中计算，只舍入一次（PyTorch 对 double 张量也是如此）", "an f64 backward computed, in whole or in part (r, say, or the final cast), in FP32: dx is only FP32-precise; the contract computes it in f64 and rounds once (as PyTorch does for a double tensor)";
    "weight-gradient-summed-in-fp32", "04-backward", 2,
        "f64 的 backward 把权重梯度在 f32（或 T）中跨行累加：相互抵消的行之间的值全丢了；应在 f64 中求和，最后只转一次 f32", "an f64 backward sums the weight's gradient over rows in f32 (or T): between rows that cancel, everything is lost; sum in f64 and narrow to f32 once, at the end";
    "grad-shape-unchecked", "04-backward", 1,
        "grad_out 与 x 形状不同时 backward 仍返回 Ok：保留练习文件里给出的形状检查，返回 `NormError::ShapeMismatch`", "backward returns Ok for a grad_out whose shape is not x's: keep the shape check the exercise file gives, returning `NormError::ShapeMismatch`";
    "backward-updates-weight", "04-backward", 2,
        "backward 改变了 weight 的值（例如顺手做了一步优化器更新）：它只应把梯度累加进 weight.grad", "backward changes the weight's value (an optimiser step, say): it must only accumulate into weight.grad";
    "mean-term-from-y", "04-backward", 2,
        "均值项用了输出 y = n ⊙ weight，而不是 n：应为 dx = r · (h − n · mean(h ⊙ n))", "the mean term is built from the output y = n ⊙ weight instead of n: dx = r · (h − n · mean(h ⊙ n))";
    "weight-applied-twice", "04-backward", 2,
        "dx 最后又乘了一次权重：h = g ⊙ weight 里已经有它了", "dx is multiplied by the weight once more, though h = g ⊙ weight already holds it";
    "weight-gradient-without-eps", "04-backward", 2,
        "权重梯度里的 n 没有 eps（x / sqrt(mean(x²))）：它应与 dx 用同一个 r = 1 / sqrt(mean(x²) + eps)", "the n in the weight's gradient leaves eps out (x / sqrt(mean(x²))): it takes the same r = 1 / sqrt(mean(x²) + eps) as dx";
    "weight-gradient-rounded-to-t", "04-backward", 2,
        "权重梯度被舍入到输入类型 T，或在 T 中跨行求和：它属于 FP32 的 weight，应在 FP32 或 f64 中求和，最后只转一次 f32", "the weight's gradient is rounded to the input type T, or summed over rows in T: it belongs to the FP32 weight, summed in FP32 or f64 and narrowed to f32 once";
    "gradient-rows-misaligned", "04-backward", 2,
        "grad_out 的行与 x 的行没有对齐（前面的轴按另一种顺序遍历）：第 i 行的 dx 只用第 i 行的 x 与 g", "grad_out's rows are paired with other rows of x (the leading axes walked in another order): row i of dx takes row i of x and of g only";
    "eps-rounded-to-t", "02-norm", 3,
        "eps 先被舍入到输入类型再相加：它属于 FP32 的统计量，保持原值（1e-6 在 f16 中差 1.3%，1e-8 变成 0）", "eps is rounded to the input's type before it is added: it belongs to the FP32 statistics and stays as it is (1e-6 is 1.3 % off in f16, and 1e-8 becomes 0)";
    "product-not-in-fp32", "03-forward", 2,
        "乘以权重不是在 FP32 中进行的（例如在 f64 中）：契约是 FP32 乘积只舍入一次，f64 输入的每个输出都是 f32 值", "the product with the weight is not taken in FP32 (in f64, say): the contract is the FP32 product rounded once, so every output of an f64 input is an f32 value";
    "empty-batch-no-gradient", "04-backward", 2,
        "空批次（0 行）时 backward 提前返回，没有累加权重梯度：它是全零（对零行求和），和其他批次一样要累加进 weight.grad", "an empty batch (0 rows) returns early without accumulating: its weight gradient is zeros (a sum over no rows), accumulated into weight.grad like any other";
    "eps-widened-through-decimal", "04-backward", 1,
        "eps 经过十进制文本转成 f64（得到正好 1e-6），而不是 `self.eps as f64`（f32 的值 9.99999997e-7）：f64 的 backward 要用层里真正的 eps", "eps is widened to f64 through its decimal text (exactly 1e-6) instead of `self.eps as f64` (the f32 value, 9.99999997e-7): the f64 backward takes the layer's actual eps";
    "ties-away-from-zero", "03-forward", 3,
        "转换回 f16/bf16 时恰好一半的值远离零舍入（如 (bits + 0x8000) & 0xFFFF0000），而不是舍入到偶数", "the cast back to f16/bf16 rounds exact ties away from zero ((bits + 0x8000) & 0xFFFF0000, say) instead of to even";
    "subnormals-flushed", "03-forward", 3,
        "转换回 f16/bf16 时，小于最小正规数的结果被清零，而不是舍入到次正规数（f16 在 6.1e-5 以下仍有值）", "the cast back to f16/bf16 flushes results below the smallest normal value to zero instead of rounding them to a subnormal (f16 still has values below 6.1e-5)";
    "weight-gradient-not-from-f64", "04-backward", 2,
        "f64 backward 的权重梯度由 FP32 的值构成（例如 FP32 的 norm(x)，而不是 f64 的 n）：它要由 f64 的各项在 f64 中求和，最后只转一次 f32", "the f64 backward's weight gradient is built from FP32 values (the FP32 norm(x), say, instead of the f64 n): it is summed in f64 from f64 terms and narrowed to f32 once";
    "backward-quadratic-in-width", "04-backward", 1,
        "backward 的代价随 D² 增长（逐元素数值求导：每个特征跑一次 forward）：在模型的宽度上要好几秒；推导出的梯度每行只需扫几遍", "backward's cost grows with D² per row (differentiating element by element, a forward per feature): at a model's width it takes seconds; a derived gradient makes a few passes over each row";
    "constant-weight", "01-weight", 2,
        "权重初值是同一个常数，但不是 1（失败信息里给出了这个值）", "the weight starts at one constant other than 1 (the failure shows the value)";
    "weight-wrong-length", "01-weight", 1,
        "权重的长度不是 hidden_size：每个特征通道正好一个值", "the weight's length is not hidden_size: exactly one value per feature channel";
    "no-sqrt", "02-norm", 3,
        "除以的是 mean(x²) + eps（RMS 的平方），而不是它的平方根：少了开方，或多除了一次", "dividing by mean(x²) + eps, the RMS squared, instead of its square root: a root missing, or a second division";
    "eps-as-floor", "02-norm", 3,
        "eps 被当成下限 max(mean(x²), eps) 或 max(rms, eps)，而不是加到均方上（f32::max 还会把 NaN 吞掉）", "eps is used as a floor, max(mean(x²), eps) or max(rms, eps), instead of being added to the mean square (and f32::max swallows a NaN)";
    "square-of-mean", "02-norm", 2,
        "用了均值的平方 mean(x)²，而不是平方的均值 mean(x²)", "the square of the mean, mean(x)², instead of the mean of the squares, mean(x²)";
    "wrong-count", "02-norm", 2,
        "平方和除以的不是 D（最后一维的长度），而是另一个数（例如第一维的长度）", "the sum of squares is divided by another count than D, the last axis's length (the first axis's length, say)";
    "weight-divided", "03-forward", 2,
        "除以了权重，而不是乘以权重", "the normalised values are divided by the weight instead of multiplied";
    "weight-squared", "03-forward", 2,
        "权重乘了两次（n ⊙ weight²）：只应乘一次", "the weight is multiplied in twice (n ⊙ weight²): once is right";
    "weight-added", "03-forward", 2,
        "权重被加上（像偏置 β 那样），而不是逐通道相乘", "the weight is added (like a bias β) instead of multiplied channel by channel";
    "rounds-toward-zero", "03-forward", 3,
        "转换回 f16/bf16 时截断（向零舍入），而不是就近舍入", "the cast back to f16/bf16 truncates (rounds toward zero) instead of rounding to nearest";
    "output-saturated", "03-forward", 3,
        "FP32 结果在转换前被截到 ±65504（f16 的最大值）：f32、f64 与 bf16 的大值丢了，f16 中超出范围的值应为 ±inf", "the FP32 result is clamped to ±65504 (f16's largest value) before the cast: f32, f64 and bf16 lose their large values, and an f16 value out of range must be ±inf";
    "weight-rounded-to-half", "03-forward", 2,
        "无论 T 是什么，权重都先被舍入到 bf16 或 f16 再相乘：应使用 `self.weight.value` 的 FP32 值（或舍入到 T 本身）", "the weight is rounded to bf16 or f16 before the multiply whatever T is: use the FP32 values of `self.weight.value` (or round them to T itself)";
    "rounded-through-half", "03-forward", 3,
        "无论 T 是什么，结果都先经过 f16 或 bf16 再转换为 T：f32 与 f64 的输出只剩半精度，另一种半精度类型被舍入了两次；用 `T::from_f32` 直接转换一次", "the result passes through f16 or bf16 on its way to T whatever T is: f32 and f64 outputs keep only half precision, and the other half type is rounded twice; convert once, straight to T, with `T::from_f32`";
    "zero-row-guarded", "02-norm", 3,
        "eps = 0 时全零行得到 0，而不是契约的 0 / 0 = NaN：全零行被特殊处理了，或 1/sqrt(0) 算出了有限值（快速平方根倒数、下限截断）；eps > 0 时公式本身就得到 0，不需要任何特判", "a zero row at eps = 0 gives 0, not the contract's (and PyTorch's) 0 / 0 = NaN: the zero row is special-cased, or 1/sqrt(0) comes out finite (a fast inverse square root, a clamp); for eps > 0 the formula itself gives 0, so no special case is needed";
    "backward-zero-row-guarded", "04-backward", 3,
        "eps = 0 时全零行被特殊处理（dx 为 0，或这一行不进入权重梯度）：那里 r = 1/0，契约的 dx 与权重梯度都是 NaN（0 · ∞）；照公式算即可", "a zero row at eps = 0 is special-cased (dx 0, or the row left out of the weight's gradient): there r = 1/0, and the contract's dx and weight gradient are NaN (0 · ∞), as PyTorch's are; just follow the formula";
    "backward-all-elements-count", "04-backward", 1,
        "backward 除以了 x 的全部元素个数（`x.len()`），而不是这一行的长度 D（在均方里、均值项里或两处都是）：每一行的统计量只属于这一行", "backward divides by every element of x (`x.len()`) instead of the row's length D (in the mean square, in the mean term, or in both): each row's statistics are its own";
    "backward-eps-rounded-to-t", "04-backward", 1,
        "backward 先把 eps 舍入到输入类型（f16/bf16）再使用：应取 `self.eps as f64`，不经过 T（0.1 在 f16 中是 0.09998）", "backward rounds eps to the input's type (f16/bf16) before using it: take `self.eps as f64`, never through T (0.1 is 0.09998 in f16)";
    "fast-inverse-sqrt", "02-norm", 3,
        "缩放因子用快速平方根倒数（位运算加一步牛顿迭代）求得：误差约 0.2%，远超 FP32 的容差；用 `sqrt` 再相除", "the scale is taken with the fast inverse square root (the bit trick and one Newton step): about 0.2 % off, far beyond FP32's tolerance; take `sqrt` and divide";
}

/// Mistakes that bring another with them, as `(cause, consequence)`: eps left out of r everywhere
/// also leaves it out of the weight's gradient.
pub const IMPLIED: &[(&str, &str)] = &[("eps-dropped-from-r", "weight-gradient-without-eps")];

/// The way of writing `product-not-in-fp32` that multiplies in f64: its candidate for every
/// forward comparison, and what an f64 forward's values that are not f32 values show.
pub const PRODUCT_IN_F64: &str = "product-in-f64";

/// Looks a mistake up by id.
pub fn find(id: &str) -> Option<&'static Mistake> {
    ALL.iter().find(|m| m.id == id)
}

pub use tutor_grade::evidence::{candidate, Candidate};

/// What `norm(x)` gives under the statistics mistakes that are not one scale per row of x (those
/// are read from the answer: `scale_fit`), and under the ways of taking the statistics in T.
pub fn wrong_norms<T: Float>(x: &ArrayD<T>, eps: f32) -> Vec<Candidate<f32>> {
    if x.ndim() == 0 {
        return Vec::new();
    }
    let x32 = x.mapv(T::to_f32);
    let last = Axis(x.ndim() - 1);
    let d = x32.len_of(last) as f32;
    // x divided by the root of `mean_square + eps`, its reduced axis put back (or not).
    let divided = |mean_square: ArrayD<f32>, axis: Option<Axis>| {
        let root = (mean_square + eps).mapv(f32::sqrt);
        &x32 / &axis.map_or(root.clone(), |axis| root.insert_axis(axis))
    };
    let mean_square = |axis: Axis| x32.mapv(|v| v * v).sum_axis(axis) / x32.len_of(axis) as f32;
    let mut out = vec![candidate(
        "layernorm",
        "centred",
        per_row(&x32, last, |row| {
            let mean = row.iter().sum::<f32>() / row.len() as f32;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / row.len() as f32;
            let scale = 1.0 / (var + eps).sqrt();
            row.iter().map(|v| (v - mean) * scale).collect()
        }),
    )];
    if x.shape()[0] > 0 {
        out.push(candidate("wrong-axis", "first-axis", divided(mean_square(Axis(0)), Some(Axis(0)))));
    }
    if !x32.is_empty() {
        let ms = x32.iter().map(|v| v * v).sum::<f32>() / x32.len() as f32;
        out.push(candidate("whole-tensor", "whole", x32.mapv(|v| v / (ms + eps).sqrt())));
    }
    if x.ndim() >= 2 && x.shape()[x.ndim() - 2] == x.shape()[x.ndim() - 1] {
        // A square input broadcasts the un-kept statistics along the wrong axis without a panic.
        out.push(candidate("keepdim-forgotten", "square-broadcast", divided(mean_square(last), None)));
    }
    // A zero row special-cased to 0 (right for eps > 0, where the formula gives 0 too; at eps = 0
    // the contract's 0 / 0 is NaN), offered on every input so that any other failure rules it
    // out; and a NaN in the right output replaced by 0 (alike on a zero row at eps = 0, told
    // apart by a NaN row of x).
    let right = divided(mean_square(last), Some(last));
    let guarded = per_row(&x32, last, |row| {
        let ms = row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32;
        let zero = eps == 0.0 && row.iter().all(|&v| v == 0.0);
        row.iter().map(|v| if zero { 0.0 } else { v / (ms + eps).sqrt() }).collect()
    });
    out.push(candidate("zero-row-guarded", "zero-row-zero", guarded));
    if right.iter().any(|v| v.is_nan()) {
        out.push(candidate("nan-replaced", "nan-output-zero", right.mapv(|v| if v.is_nan() { 0.0 } else { v })));
    }
    // The normalised values rounded to a half-precision T before they are returned (and rounded
    // again by forward after the weight).
    if std::mem::size_of::<T>() < 4 {
        out.push(candidate("double-rounding", "norm-rounded-to-t", right.mapv(|v| T::from_f32(v).to_f32())));
    }
    // The mean of |x| where the mean square belongs, with or without the root (an L1 norm).
    let mean_abs = x32.mapv(f32::abs).sum_axis(last) / d;
    out.push(candidate("abs-not-square", "mean-abs-no-root", &x32 / &(mean_abs + eps).insert_axis(last)));
    // No eps, with the zero row special-cased instead (`if ms > 0`): such rows are left as they are.
    let guarded = mean_square(last).mapv(|ms| if ms > 0.0 { ms.sqrt() } else { 1.0 });
    out.push(candidate("no-eps", "zero-guard", &x32 / &guarded.insert_axis(last)));
    out.extend(fast_rsqrt::candidates(&x32, eps));
    // eps rounded to the input's type before it is added (1e-6 is 1.3 % off in f16, 1e-8 is 0).
    let eps_in_t = T::from_f32(eps).to_f32();
    if eps_in_t != eps {
        let root = (mean_square(last) + eps_in_t).mapv(f32::sqrt);
        out.push(candidate("eps-rounded-to-t", "eps-in-t", &x32 / &root.insert_axis(last)));
    }
    // Low-precision statistics, the ways people write them: squares in T; squares rounded to T
    // and summed in T one by one; everything in T through ndarray's sum (eight partial sums).
    let in_t = [
        ("squares-in-t", x.mapv(|v| (v * v).to_f32()).sum_axis(last)),
        (
            "running-sum-in-t",
            x.map_axis(last, |row| row.fold(T::zero(), |s, &v| s + T::from_f32(v.to_f32() * v.to_f32())).to_f32()),
        ),
        ("sum-axis-in-t", x.mapv(|v| v * v).sum_axis(last).mapv(T::to_f32)),
    ];
    for (variant, sum) in in_t {
        out.push(candidate("half-precision-statistics", variant, divided(sum / d, Some(last))));
    }
    out
}

/// A variant as written in `forward` itself, not in the `norm` it calls (see
/// [`tutor_grade::evidence::scoped`]).
pub fn in_forward(variant: &'static str) -> &'static str {
    tutor_grade::evidence::scoped("forward", variant)
}

/// A right forward's FP32 result, before its one rounding to `T`.
pub fn unrounded_forward<T: Float>(x: &ArrayD<T>, eps: f32, weight: &Param) -> Option<ArrayD<f32>> {
    let mut y = reference::rms_normalize(x, eps).ok()?;
    if y.ndim() == 0 || y.shape().last() != Some(&weight.len()) {
        return None;
    }
    let last = Axis(y.ndim() - 1);
    y.lanes_mut(last).into_iter().for_each(|mut row| row *= &weight.value);
    Some(y)
}

/// What `forward(x)` gives under each mistake: every statistics mistake carried through a
/// correct scale-and-cast, and the scaling and casting mistakes on a correct normalisation.
pub fn wrong_forwards<T: Float>(x: &ArrayD<T>, eps: f32, weight: &Param) -> Vec<Candidate<T>> {
    let scale = |n: &ArrayD<f32>| reference::scale_and_cast::<T>(n, weight).ok();
    let mut out: Vec<Candidate<T>> = wrong_norms(x, eps)
        .into_iter()
        .filter_map(|c| scale(&c.output).map(|y| candidate(c.mistake, in_forward(c.variant), y)))
        .collect();
    let (Some(right), Ok(normalized)) = (unrounded_forward(x, eps, weight), reference::rms_normalize(x, eps)) else {
        return out;
    };
    let last = Axis(normalized.ndim() - 1);
    let x32 = x.mapv(T::to_f32);
    let root = (x32.mapv(|v| v * v).sum_axis(last) / weight.len() as f32).mapv(f32::sqrt);
    if let Some(without) = scale(&(&x32 / &root.insert_axis(last))) {
        out.push(candidate("forward-without-eps", "no-eps", without));
    }
    if normalized.ndim() >= 2 && normalized.shape()[normalized.ndim() - 2] == weight.len() {
        let column = weight.value.clone().insert_axis(Axis(1));
        out.push(candidate("weight-transposed-or-reversed", "column", (&normalized * &column).mapv(T::from_f32)));
    }
    // Two roundings: the normalised values rounded to T first, then multiplied in T (Hugging
    // Face, Meta LLaMA), or widened again and multiplied in FP32 or f64.
    let normalized_t = normalized.mapv(T::from_f32);
    let weighted = |times: &dyn Fn(T, f32) -> T| {
        let mut y = normalized_t.clone();
        y.lanes_mut(last).into_iter().for_each(|mut row| row.zip_mut_with(&weight.value, |v, &w| *v = times(*v, w)));
        y
    };
    out.push(candidate("double-rounding", "product-in-t", weighted(&|v, w| v * T::from_f32(w))));
    out.push(candidate("double-rounding", "widened-again", weighted(&|v, w| T::from_f32(v.to_f32() * w))));
    out.push(candidate("double-rounding", "product-in-f64", weighted(&|v, w| T::from_f64(v.to_f64() * f64::from(w)))));
    // The FP32 normalised values times the weight in f64, rounded once: for a half type a rare
    // double rounding only; for f64 no FP32 product at all (see `cases::forward::forward_matches`).
    let mut in_f64 = normalized.mapv(f64::from);
    in_f64.lanes_mut(last).into_iter().for_each(|mut row| row.zip_mut_with(&weight.value, |v, &w| *v *= f64::from(w)));
    out.push(candidate("product-not-in-fp32", PRODUCT_IN_F64, in_f64.mapv(T::from_f64)));
    out.extend(output::candidates(x, eps, weight, &right, &normalized));
    if std::mem::size_of::<T>() < 4 {
        // The wrong conversions, per dtype: a file may truncate bf16 and round f16 right.
        let unrounded = right.mapv(f64::from);
        out.push(candidate("rounds-toward-zero", T::NAME, Rounding::TowardZero.array(&unrounded)));
        out.push(candidate("ties-away-from-zero", T::NAME, Rounding::TiesAway.array(&unrounded)));
        let min_normal = Spacing::of::<T>().min_normal();
        let flushed = |zero: fn(f32) -> f32| {
            right.mapv(|v| T::from_f32(if f64::from(v.abs()) < min_normal { zero(v) } else { v }))
        };
        // Per dtype, as the wrong conversions above: a file may flush one half type only.
        let (signed, positive) = match T::NAME {
            "float16" => ("float16-signed-zero", "float16-positive-zero"),
            _ => ("bfloat16-signed-zero", "bfloat16-positive-zero"),
        };
        out.push(candidate("subnormals-flushed", signed, flushed(|v| 0.0f32.copysign(v))));
        out.push(candidate("subnormals-flushed", positive, flushed(|_| 0.0)));
        out.push(candidate("half-precision-statistics", "forward-in-t", forward_in(x, eps, weight)));
    }
    out
}

/// `forward` computed in `T` throughout, as `x * rsqrt(mean(x * x) + eps) * w` written on `T`
/// values: squares, running sum, root and products each rounded to `T`.
pub fn forward_in<T: Float>(x: &ArrayD<T>, eps: f32, weight: &Param) -> ArrayD<T> {
    let mut y = x.clone();
    if x.ndim() == 0 || x.shape().last() != Some(&weight.len()) {
        return y;
    }
    let last = Axis(x.ndim() - 1);
    let weight_t: Vec<T> = weight.value.iter().map(|&w| T::from_f32(w)).collect();
    for mut row in y.lanes_mut(last) {
        let d = T::from_f32(row.len() as f32);
        let sum = row.iter().fold(T::zero(), |acc, &v| acc + v * v);
        let root = T::from_f32((sum / d + T::from_f32(eps)).to_f32().sqrt());
        for (v, &w) in row.iter_mut().zip(&weight_t) {
            *v = *v / root * w;
        }
    }
    y
}

fn per_row(x: &ArrayD<f32>, axis: Axis, f: impl Fn(&[f32]) -> Vec<f32>) -> ArrayD<f32> {
    let mut out = x.clone();
    for mut row in out.lanes_mut(axis) {
        let values: Vec<f32> = row.iter().copied().collect();
        for (slot, v) in row.iter_mut().zip(f(&values)) {
            *slot = v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_candidate_names_a_catalogued_mistake() {
        let x = ArrayD::from_shape_vec(vec![2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
        let weight = Param::trainable(ndarray::Array1::from(vec![0.5, 2.0]));
        let x16 = x.mapv(half::f16::from_f32);
        for c in wrong_forwards(&x16, 1e-6, &weight) {
            assert!(ALL.iter().any(|m| m.id == c.mistake), "{} is not catalogued", c.mistake);
        }
        let ids: std::collections::BTreeSet<_> = ALL.iter().map(|m| m.id).collect();
        assert_eq!(ids.len(), ALL.len(), "ids are unique");
    }
}
