# Start-up time of the `grundy` executable. Loading libstdc++, fmt and the ~30 abseil
# libraries as shared objects made the dynamic loader's symbol lookups about a third of
# `grundy eval 1` (2.1 ms; 1.3 ms linked this way), which every whole-process timing
# against a hand-written program pays. Debian ships abseil's static archives next to the
# shared ones, and fmt works header-only: with both, nothing shared needs libstdc++ and it
# can be linked statically too. Off under the sanitizers, whose runtimes want the shared
# C++ library.

# The abseil targets `target` depends on, directly or not.
function(grundy_absl_closure target out)
  set(seen ${${out}})
  get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT deps)
    return()
  endif()
  foreach(dep IN LISTS deps)
    if(dep MATCHES "^absl::" AND TARGET ${dep} AND NOT dep IN_LIST seen)
      list(APPEND seen ${dep})
      grundy_absl_closure(${dep} seen)
    endif()
  endforeach()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# Points each imported abseil library that `targets` need at its static archive, where one
# is installed beside the shared library.
function(grundy_link_absl_statically)
  set(all ${ARGN})
  foreach(t IN LISTS ARGN)
    grundy_absl_closure(${t} all)
  endforeach()
  foreach(t IN LISTS all)
    get_target_property(type ${t} TYPE)
    if(NOT type STREQUAL "SHARED_LIBRARY")
      continue()
    endif()
    get_target_property(configs ${t} IMPORTED_CONFIGURATIONS)
    foreach(config IN LISTS configs)
      get_target_property(location ${t} IMPORTED_LOCATION_${config})
      string(REGEX REPLACE "\\.so(\\.[0-9.]+)?$" ".a" archive "${location}")
      if(location AND EXISTS "${archive}")
        set_target_properties(${t} PROPERTIES IMPORTED_LOCATION_${config} "${archive}")
      endif()
    endforeach()
  endforeach()
endfunction()
