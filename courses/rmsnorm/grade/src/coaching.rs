//! What the course says under the compile errors each exercise is likely to meet, in that
//! exercise's own terms: the names it has in scope and the conversion it needs (into f32 for the
//! statistics, back to `T` for the result). tutor recognises the errors; the course writes the
//! notes.

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
