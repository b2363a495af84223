#!/usr/bin/env python3
"""How variants/snub-disphenoid.toml, triaugmented-triangular-prism.toml and
gyroelongated-square-bipyramid.toml were made: coordinates of each solid, its convex hull by
brute force, faces oriented clockwise from outside (checked on the octahedron against
variants/octahedron.toml), all edges checked equal. Writes the .toml files to the current
directory."""
import itertools, math
def hull(pts):
    faces=[]
    n=len(pts)
    for a,b,c in itertools.combinations(range(n),3):
        A,B,C=pts[a],pts[b],pts[c]
        u=[B[i]-A[i] for i in range(3)]; v=[C[i]-A[i] for i in range(3)]
        nrm=[u[1]*v[2]-u[2]*v[1],u[2]*v[0]-u[0]*v[2],u[0]*v[1]-u[1]*v[0]]
        if sum(x*x for x in nrm)<1e-12: continue
        side=[sum(nrm[i]*(pts[k][i]-A[i]) for i in range(3)) for k in range(n) if k not in (a,b,c)]
        if all(s< 1e-9 for s in side) or all(s> -1e-9 for s in side):
            # outward normal: points on negative side
            if all(s<1e-9 for s in side):
                # nrm outward -> a,b,c is CCW from outside; clockwise = a,c,b
                faces.append((a,c,b))
            else:
                faces.append((a,b,c))
    return faces
def check(name,pts,want):
    f=hull(pts)
    edges=set()
    for a,b,c in f:
        for x,y in ((a,b),(b,c),(c,a)): edges.add((min(x,y),max(x,y)))
    L=[math.dist(pts[x],pts[y]) for x,y in edges]
    print(name,len(pts),"vertices",len(f),"faces",len(edges),"edges","edge len",round(min(L),6),round(max(L),6))
    assert len(f)==want and abs(min(L)-max(L))<1e-6
    return f
# snub disphenoid
# q: positive root of 2x^3+11x^2+4x-1
lo,hi=0.0,1.0
for _ in range(200):
    m=(lo+hi)/2
    if 2*m**3+11*m**2+4*m-1>0: hi=m
    else: lo=m
q=lo; r=math.sqrt(q); s=math.sqrt((1-q)/(2*q)); t=2*r*s
snub=[(t,r,0),(-t,r,0),(0,-r,t),(0,-r,-t),(1,-s,0),(-1,-s,0),(0,s,1),(0,s,-1)]
f12=check("snub",snub,12)
# triaugmented triangular prism
R=1/math.sqrt(3)
tri=[(R*math.cos(2*math.pi*k/3),R*math.sin(2*math.pi*k/3)) for k in range(3)]
pts14=[(x,y,0.5) for x,y in tri]+[(x,y,-0.5) for x,y in tri]
ri=1/(2*math.sqrt(3)); d=ri+math.sqrt(0.5)
for k in range(3):
    ang=2*math.pi*k/3+math.pi/3
    pts14.append((d*math.cos(ang),d*math.sin(ang),0))
f14=check("triaug",pts14,14)
# gyroelongated square bipyramid
R=1/math.sqrt(2); h=math.sqrt(1-(2*R*math.sin(math.pi/8))**2); a=math.sqrt(1-R*R)
pts16=[(0,0,h/2+a)]+[(R*math.cos(k*math.pi/2),R*math.sin(k*math.pi/2),h/2) for k in range(4)]+[(R*math.cos(k*math.pi/2+math.pi/4),R*math.sin(k*math.pi/2+math.pi/4),-h/2) for k in range(4)]+[(0,0,-h/2-a)]
f16=check("gyro",pts16,16)
import json
json.dump({"12":f12,"14":f14,"16":f16},open("faces.json","w"))
oct_pts=[(0,0,1),(1,0,0),(0,1,0),(-1,0,0),(0,-1,0),(0,0,-1)]
fo=hull(oct_pts)
L="ABCDEF"
def cyc(f): 
    i=f.index(min(f)); return f[i:]+f[:i]
got=sorted(cyc(tuple(L[x] for x in f)) for f in fo)
want=sorted(cyc(tuple(f)) for f in [("A","C","B"),("A","D","C"),("A","E","D"),("A","B","E"),("F","B","C"),("F","C","D"),("F","D","E"),("F","E","B")])
print("octahedron orientation matches file:", got==want)
names={"12":("snub-disphenoid","The snub disphenoid (Johnson solid J84), 12 faces: 4 vertices of degree 4, 4 of degree 5."),
       "14":("triaugmented-triangular-prism","The triaugmented triangular prism (J51), 14 faces: a triangular prism (A-C top, D-F bottom) with a pyramid (G, H, I) on each square."),
       "16":("gyroelongated-square-bipyramid","The gyroelongated square bipyramid (J17), 16 faces: apex A, squares B-E and F-I (a square antiprism), apex J.")}
for k,(nm,desc) in names.items():
    f=json.load(open("faces.json"))[k]
    nv=1+max(max(x) for x in f)
    L=[chr(65+i) for i in range(nv)]
    fs=sorted(cyc(tuple(L[x] for x in face)) for face in f)
    body="# "+desc+"\n# Faces clockwise from outside, computed from coordinates (convex hull, outward normals).\n"
    body+='name = "%s"\nvertices = [%s]\nfaces = [\n'%(nm,", ".join('"%s"'%x for x in L))
    body+="".join('  ["%s", "%s", "%s"],\n'%ff for ff in fs)+"]\n"
    open(nm+".toml","w").write(body)
