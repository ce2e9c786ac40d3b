#!/usr/bin/env python3
"""Writes the capture layer's Vulkan surface from the API registry and one list of commands.

Reads vk.xml (the registry libvulkan-dev installs, /usr/share/vulkan/registry/vk.xml) and
layer/hooked_commands.txt, and writes two headers into the build tree:

  vulkan_surface.h    the next layer's dispatch tables (InstanceDispatch, DeviceDispatch), their
                      fill functions, and the declarations of the layer's hook functions;
  vulkan_intercept.h  the intercept table: command name -> the layer's hook, sorted by name and
                      searched by binary search (included by layer.cpp only).

Everything about a command that vk.xml knows is taken from it rather than written by hand: its
dispatch level (the type of its first parameter, following `alias` to the command it names), the
command an alias stands for, and the preprocessor guard of a platform-specific one (the
`protect` of its extension's `platform`). Errors are one line on stderr and exit status 1, so
that the build stops at the list line at fault.

Standard library only (Debian's python3).
"""

import argparse
import os
import sys
import xml.etree.ElementTree as ET

SCRIPT = "layer/gen_vulkan_surface.py"

INSTANCE_HANDLES = {"VkInstance", "VkPhysicalDevice"}
DEVICE_HANDLES = {"VkDevice", "VkQueue", "VkCommandBuffer"}


class Error(Exception):
    pass


def for_vulkan(element):
    """True unless the element is marked for another API only (e.g. api="vulkansc")."""
    api = element.get("api")
    return api is None or "vulkan" in api.split(",")


class Registry:
    def __init__(self, path):
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            raise Error(f"cannot read the Vulkan registry {path}: {e}")
        self.path = path
        self.version = ""
        for t in root.iterfind("types/type"):
            name = t.find("name")
            if name is not None and name.text == "VK_HEADER_VERSION" and for_vulkan(t):
                self.version = (name.tail or "").strip()
        # name -> first parameter type (None for a command without parameters), or the alias.
        self.first_param = {}
        self.alias_of = {}
        for c in root.iterfind("commands/command"):
            if not for_vulkan(c):
                continue
            if c.get("alias"):
                self.alias_of[c.get("name")] = c.get("alias")
                continue
            name = c.find("proto/name").text
            params = [p for p in c.iterfind("param") if for_vulkan(p)]
            self.first_param[name] = params[0].find("type").text if params else None
        protect_of_platform = {
            p.get("name"): p.get("protect") for p in root.iterfind("platforms/platform")
        }
        # name -> set of guards under which some feature or extension provides it (None: no guard).
        self.guards = {}
        for f in root.iterfind("feature"):
            if for_vulkan(f):
                self._require(f, None)
        for e in root.iterfind("extensions/extension"):
            if "vulkan" not in (e.get("supported") or "").split(","):
                continue  # disabled or for another API: not in the headers
            protect = e.get("protect")
            if e.get("platform"):
                protect = protect_of_platform.get(e.get("platform"), protect)
            self._require(e, protect)

    def _require(self, element, guard):
        for req in element.iterfind("require"):
            if not for_vulkan(req):
                continue
            for c in req.iterfind("command"):
                self.guards.setdefault(c.get("name"), set()).add(guard)

    def known(self, name):
        return name in self.first_param or name in self.alias_of

    def canonical(self, name):
        seen = set()
        while name in self.alias_of and name not in seen:
            seen.add(name)
            name = self.alias_of[name]
        return name

    def level(self, name):
        """'instance', 'device' or 'global' (no dispatchable first parameter)."""
        first = self.first_param.get(self.canonical(name))
        if first in INSTANCE_HANDLES:
            return "instance"
        if first in DEVICE_HANDLES:
            return "device"
        return "global"

    def guard(self, name):
        """The #if condition a command needs, or None when it is always declared."""
        guards = self.guards.get(name)
        if not guards:
            return "missing"
        if None in guards:
            return None
        return " || ".join(f"defined({g})" for g in sorted(guards))


class Entry:
    def __init__(self, line, how, names, level, guard):
        self.line = line
        self.how = how  # 'hook' or 'call'
        self.names = names  # the slot's name first, then the aliases it also answers for
        self.level = level
        self.guard = guard

    @property
    def slot(self):
        return self.names[0][2:]  # vkQueueSubmit2 -> QueueSubmit2


def shown(path):
    """A path as the source tree names it (layer/hooked_commands.txt), else as given."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rel = os.path.relpath(os.path.abspath(path), root)
    return path if rel.startswith("..") else rel


def read_list(path, reg):
    rel = shown(path)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise Error(f"cannot read the command list {path}: {e}")
    entries, seen = [], {}
    for number, text in enumerate(lines, 1):
        where = f"{rel}:{number}"
        words = text.split("#", 1)[0].split()
        if not words:
            continue
        how, names = words[0], words[1:]
        if how not in ("hook", "call") or not names:
            raise Error(f"{where}: expected 'hook NAME [ALIAS...]' or 'call NAME [ALIAS...]'")
        for n in names:
            if not reg.known(n):
                raise Error(f"{where}: {n} is not a Vulkan command in {reg.path}")
            if n in seen:
                raise Error(f"{where}: {n} is already listed on line {seen[n]}")
            seen[n] = number
            if reg.guard(n) == "missing":
                raise Error(f"{where}: {n} is provided by no feature or enabled extension in "
                            f"{reg.path} (so not by the Vulkan headers either)")
        target = reg.canonical(names[0])
        for n in names[1:]:
            if reg.canonical(n) != target:
                raise Error(f"{where}: {n} is not an alias of {names[0]} in {reg.path} "
                            f"(list different commands on separate lines)")
        level = reg.level(names[0])
        if level == "global" and how == "call":
            raise Error(f"{where}: {names[0]} is a global command: no dispatch table holds it "
                        f"(fetch it from the loader's vkGetInstanceProcAddr with a null instance)")
        if level == "global" and len(names) > 1:
            raise Error(f"{where}: a global command takes no aliases here")
        # A command several platforms provide keeps the guard of its first name: an alias
        # answers for the same entry point, so it must be declared wherever the slot is.
        entries.append(Entry(where, how, names, level, reg.guard(names[0])))
    return entries


def guarded(lines, guard):
    if guard is None:
        return lines
    return [f"#if {guard}"] + lines + ["#endif"]


def banner(reg, list_path):
    version = f" (Vulkan headers version {reg.version})" if reg.version else ""
    return [
        f"// Generated by {SCRIPT} from vk.xml{version}",
        f"// and layer/{os.path.basename(list_path)}, do not edit: change the list (or the script) and",
        "// rebuild. See layer/README.md.",
    ]


def surface_header(reg, entries, list_path):
    out = banner(reg, list_path) + [
        "#pragma once",
        "",
        "#include <type_traits>",
        "",
        "#include <vulkan/vk_layer.h>",
        "#include <vulkan/vulkan.h>",
        "",
        "namespace tessera::layer {",
        "",
    ]
    tables = [
        ("instance", "InstanceDispatch", "GetInstanceProcAddr", "VkInstance", "instance", "gipa",
         "Instance-level commands of the next layer (first parameter VkInstance or "
         "VkPhysicalDevice)."),
        ("device", "DeviceDispatch", "GetDeviceProcAddr", "VkDevice", "device", "gdpa",
         "Device-level commands of the next layer (first parameter VkDevice, VkQueue or "
         "VkCommandBuffer)."),
    ]
    for level, struct, gpa, handle, var, fn, comment in tables:
        out += [f"// {comment}",
                "// One member per list line, named after its first name; the line's aliases fill it",
                "// when the next layer does not have that name.", f"struct {struct} {{",
                f"  PFN_vk{gpa} {gpa} = nullptr;"]
        for e in entries:
            if e.level == level:
                out += ["  " + l if not l.startswith("#") else l for l in
                        guarded([f"PFN_{e.names[0]} {e.slot} = nullptr;"], e.guard)]
        out += ["};", ""]
    for level, struct, gpa, handle, var, fn, comment in tables:
        # The next layer's GetProcAddr comes from the loader's link info (loader-layer
        # interface, "Layer Dispatch Initialization"); every other pointer is asked of it.
        out += [f"inline void load_{level}_dispatch({struct}& t, {handle} {var}, PFN_vk{gpa} {fn}) {{",
                f"  t.{gpa} = {fn};"]
        for e in entries:
            if e.level != level:
                continue
            body = [f"t.{e.slot} = reinterpret_cast<PFN_{e.names[0]}>({fn}({var}, \"{e.names[0]}\"));"]
            for alias in e.names[1:]:
                body.append(f"if (t.{e.slot} == nullptr) t.{e.slot} = "
                            f"reinterpret_cast<PFN_{e.names[0]}>({fn}({var}, \"{alias}\"));")
            out += ["  " + l if not l.startswith("#") else l for l in guarded(body, e.guard)]
        out += ["}", ""]
    out += [
        "// The layer's hook functions, defined in layer/*.cpp (a missing one fails the link).",
        "// Declared through the command's own PFN type: a definition whose parameters differ from",
        "// vk.xml's is another function, and the link fails the same way.",
    ]
    for e in entries:
        if e.how == "hook":
            also = f"  // also {', '.join(e.names[1:])}" if len(e.names) > 1 else ""
            out += guarded([f"std::remove_pointer_t<PFN_{e.names[0]}> {e.slot};{also}"], e.guard)
    out += ["", "}  // namespace tessera::layer", ""]
    return "\n".join(out)


def intercept_header(reg, entries, list_path):
    hooks = []
    for e in entries:
        if e.how != "hook":
            continue
        for name in e.names:
            hooks.append((name, e))
    hooks.sort(key=lambda h: h[0].encode())  # strcmp order
    out = banner(reg, list_path) + [
        "#pragma once",
        "",
        "#include <algorithm>",
        "#include <cstring>",
        "#include <iterator>",
        "",
        '#include "generated/vulkan_surface.h"',
        '#include "guard.h"',
        "",
        "namespace tessera::layer {",
        "",
        "// Which vkGet*ProcAddr rules apply to a hook (layer.cpp): instance-level ones (global",
        "// commands included) are handed out always, device-level ones only while capturing.",
        "enum class HookLevel { kInstance, kDevice };",
        "",
        "struct Hook {",
        "  const char* name;",
        "  PFN_vkVoidFunction function;  // the hook behind its exception boundary (guard.h)",
        "  HookLevel level;",
        "};",
        "",
        "// Sorted by name in strcmp order (find_hook searches it by halves).",
        "inline const Hook kHooks[] = {",
    ]
    for name, e in hooks:
        level = "kDevice" if e.level == "device" else "kInstance"
        out += guarded([
            f"    {{\"{name}\",",
            f"     reinterpret_cast<PFN_vkVoidFunction>(&Guarded<&{e.slot}, HookName{{\"{name}\"}}>::call),",
            f"     HookLevel::{level}}},",
        ], e.guard)
    out += [
        "};",
        "",
        "// The hook for a command name, or nullptr when the layer does not intercept it.",
        "inline const Hook* find_hook(const char* name) {",
        "  const Hook* end = std::end(kHooks);",
        "  const Hook* it = std::lower_bound(std::begin(kHooks), end, name, [](const Hook& h, const char* n) {",
        "    return std::strcmp(h.name, n) < 0;",
        "  });",
        "  return it != end && std::strcmp(it->name, name) == 0 ? it : nullptr;",
        "}",
        "",
        "}  // namespace tessera::layer",
        "",
    ]
    return "\n".join(out)


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registry", required=True, help="vk.xml")
    parser.add_argument("--commands", required=True, help="layer/hooked_commands.txt")
    parser.add_argument("--out-dir", required=True, help="folder for the generated headers")
    args = parser.parse_args()
    try:
        reg = Registry(args.registry)
        entries = read_list(args.commands, reg)
        os.makedirs(args.out_dir, exist_ok=True)
        write(os.path.join(args.out_dir, "vulkan_surface.h"),
                         surface_header(reg, entries, args.commands))
        write(os.path.join(args.out_dir, "vulkan_intercept.h"),
                         intercept_header(reg, entries, args.commands))
    except Error as e:
        print(f"{SCRIPT}: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
