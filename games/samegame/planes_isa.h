/*
 * planes_isa.h - one instruction set's builds of planes_body.h, both
 * geometries. planes.h defines SG_ISA, SG_TARGET, SG_BMI2, SG_POPCOUNT and
 * SG_SELECT (see planes_body.h), then includes this file, which undefines
 * them at the end. No include guard, on purpose.
 */
#define SG_LANE 16
#include "planes_body.h"
#define SG_LANE 32
#include "planes_body.h"

#undef SG_ISA
#undef SG_TARGET
#undef SG_BMI2
#undef SG_POPCOUNT
#undef SG_SELECT
