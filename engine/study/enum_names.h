// The study file's spellings of the study enums, both ways (engine-internal; the public spelling is
// name_of() in study.h).
#pragma once

#include "engine/study/study.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace bif::study {

template <class E>
struct EnumName {
    E value;
    const char* name;
};

template <class E>
std::span<const EnumName<E>> enum_names();

template <>
std::span<const EnumName<AnalysisKind>> enum_names();
template <>
std::span<const EnumName<SweepScale>> enum_names();
template <>
std::span<const EnumName<Method>> enum_names();
template <>
std::span<const EnumName<PrecisionChoice>> enum_names();
template <>
std::span<const EnumName<BackendChoice>> enum_names();
template <>
std::span<const EnumName<SectionKind>> enum_names();
template <>
std::span<const EnumName<CrossingDirection>> enum_names();
template <>
std::span<const EnumName<IntervalValue>> enum_names();
template <>
std::span<const EnumName<Reduction>> enum_names();
template <>
std::span<const EnumName<ReductionDomain>> enum_names();
template <>
std::span<const EnumName<LyapunovMode>> enum_names();

template <class E>
std::optional<E> enum_from_name(std::string_view name) {
    for (const auto& entry : enum_names<E>())
        if (name == entry.name) return entry.value;
    return std::nullopt;
}

// "rk4, rkck45, dopri5" for messages.
template <class E>
std::string enum_name_list() {
    std::string list;
    for (const auto& entry : enum_names<E>()) {
        if (!list.empty()) list += ", ";
        list += entry.name;
    }
    return list;
}

template <class E>
const char* enum_to_name(E value) {
    for (const auto& entry : enum_names<E>())
        if (entry.value == value) return entry.name;
    return "?";
}

} // namespace bif::study
