import re,sys
txt=open(sys.argv[1]).read()
wl=None;q=None
for line in txt.splitlines():
    if line.startswith('## '): wl=line[3:].split()[0]; q=None
    if line.startswith('#### '): q=line[5:]
    m=re.match(r'\| (A|C|C-rows) \| ([^|]+)\| ([^|]+)\| ([^|]+)\| ([^|]+)\|',line)
    if m and q and wl:
        print(f"{wl:9s} {q:24s} {m.group(1):7s} p50 {m.group(2).strip():16s} 1r {m.group(4).strip():30s} 16r {m.group(5).strip()}")
