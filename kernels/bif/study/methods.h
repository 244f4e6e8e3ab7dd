// The integration methods by name, as tags that name a stepper template for any model: a program
// integrates the model itself and its tangent extension with the same method,
// `typename Method::template stepper<IM>`. (A tag rather than a template template parameter, which
// would not bind Rkc's defaulted second parameter on every compiler.)
#pragma once

#include "bif/steppers/dopri5.h"
#include "bif/steppers/iteration.h"
#include "bif/steppers/rk4.h"
#include "bif/steppers/rkc.h"
#include "bif/steppers/rkck45.h"
#include "bif/steppers/rodas4.h"
#include "bif/steppers/rosenbrock23.h"

namespace bif::ensemble::methods {

struct Rk4 {
    template <class M>
    using stepper = bif::Rk4<M>;
};
struct Rkck45 {
    template <class M>
    using stepper = bif::Rkck45<M>;
};
struct Dopri5 {
    template <class M>
    using stepper = bif::Dopri5<M>;
};
struct Rkc {
    template <class M>
    using stepper = bif::Rkc<M>;
};
struct Rosenbrock23 {
    template <class M>
    using stepper = bif::Rosenbrock23<M>;
};
struct Rodas4 {
    template <class M>
    using stepper = bif::Rodas4<M>;
};
// Maps (model kind map): one iterate per unit step.
struct Iteration {
    template <class M>
    using stepper = bif::Iteration<M>;
};

} // namespace bif::ensemble::methods
