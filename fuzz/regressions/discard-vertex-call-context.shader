// fuzz_variants (session 11): the preserving check reported `discard` in fn19 as run by the vertex stage "in variants
// where SCENE_USE_FOG is not defined and MATERIAL_ENABLE_EMISSION is not defined", but the vertex entry calls fn19
// only with SCENE_USE_FOG defined, so no variant reported it (call-site contexts were not compared).
Shader "Fuzz/Generated" {
  Number rs0;
  StencilState = {
    ReferenceValue = 4;
    FailOperationBack = StencilOperation.IncrementWrap;
  }
  uniform bool renderer_U1;
  vec4 renderer_U2;
  sampler2D material_Tex3;
  float scene_U4;
  mat3 scene_U5;
  void fn6(float p7) {
    for (int i8 = 0; i8 < 1; i8++) {
      p7 *= 4.0;
      bool l9 = any(bvec2(renderer_U2.ttps.zxxw.xy).gggg);
      ++p7;
    }
    vec3 l10 = (renderer_U1 ? (matrixCompMult(scene_U5, scene_U5) * (renderer_U1 ? vec3(scene_U4) : vec3(p7))) : vec3(bvec4(false, renderer_U1, false, renderer_U1)));
    return;
  }
  SubShader "Default" {
    Tags { replacementTag = "Opaque" }
    RasterState state11 {
      CullMode = CullMode.Front;
      DepthBias = 8;
      SlopeScaledDepthBias = rs0;
    }
    RasterState = state11;
    uniform samplerCube material_Tex12;
    Pass "P0" {
      Tags { pipelineStage = "Forward" }
      Color rs13;
      RasterState = {
        CullMode = CullMode.Off;
        DepthBias = 7;
        SlopeScaledDepthBias = 0.13;
      }
      BlendState state14 {
        Enabled[0] = false;
        SourceAlphaBlendFactor[0] = BlendFactor.SourceColor;
        DestinationAlphaBlendFactor = BlendFactor.SourceAlpha;
        BlendColor = Color(10, 7.66);
      }
      BlendState = state14;
      RenderQueueType queue15;
      RenderQueueType = queue15;
      mat4 renderer_MVPMat;
      uniform samplerCube material_Tex16;
      vec4 renderer_U17;
      bool g18 = (true || false);
      float fn19() {
        vec4 l20[1];
        l20[0] = (vec4(scene_U4) - 7.5);
        l20[0]--;
        g18 = not(not(bvec3(renderer_U1))).x;
        l20[0].ptsq = renderer_U2;
#ifdef SCENE_USE_FOG
        for (int i21 = 0; i21 < 3; i21++) {
          {
            mat3 l22 = matrixCompMult(((false ? scene_U5 : scene_U5) / 0.5), mat3(vec3(5.0), renderer_U17.psq, (renderer_U17.ggr / 2.0)));
            g18 = (g18 && bvec3(false, renderer_U1, g18)[2]);
            l22 /= 2.0;
            float l23 = 0.0;
            g18 = g18;
          }
#ifndef MATERIAL_ENABLE_EMISSION
          g18 = bool((-ivec2(i21)).y);
          vec2 l27 = (renderer_U1 ? (renderer_U1 ? renderer_U2.tsss : vec4(4.0)).ra : ((vec2(1.5) * mat2(5.0)) * matrixCompMult(mat2(l20[0].q), mat2(scene_U4))));
#else
          g18 = g18;
          for (int i24 = 0; i24 < 4; i24++) {
            fn6(distance(100.0, dot(l20[0], renderer_U17)));
            g18 = bool(ivec4(1));
          }
          l20[0] *= renderer_U2;
          g18 = g18;
          for (int i25 = 0; i25 < 1; i25++) {
            l20[i25] = (smoothstep((renderer_U2 - renderer_U17.psqs.b), (renderer_U17 - renderer_U2), renderer_U2.wyw.xzzz) + (renderer_U2.wzyw.sppp * vec4(true, scene_U4, 1.5, scene_U4)));
            vec2 l26[3];
            l26[0] = vec3(0.125).pp;
          }
          vec2 l27 = pow(tan(vec2(renderer_U2.zxwy)), (fract(renderer_U17.zwyy.zx) - vec2(6.0, ivec2(i21))));
#endif
          mat3 l28 = (-scene_U5);
        }
        vec2 l29 = (mat2(vec2(2.5)[1], renderer_U17.ar[1], dot(vec4(8.0), l20[0]), renderer_U17.s) * (mat2(scene_U4) * ceil(renderer_U17.abgg.ttss.tq)));
        {
          vec3 l30;
          if (all(bvec3((g18 ^^ renderer_U1)))) {
            l30 = l30;
            g18 = renderer_U1;
            mat2 l31 = matrixCompMult(matrixCompMult(mat2(l29, vec2(l30.sspt.w)), (mat2(scene_U4) + mat2(100.0))), (mat2(l29, l29) - mat2(l29.r)));
            g18 = false;
          } else {
            bool l32 = not(bvec4(renderer_U1).psqt)[2];
            const vec3 l33 = (0.5 * (vec3(4.5).rgr - dot(7.0, 5.5)));
            l20[0].brag = (renderer_U17 / 3.0).zzzy;
          }
          if (bool((-ivec3(10).b))) {
            vec4 l34;
            float l35;
            vec4 l36 = l20[0];
          }
        }
        ivec2 l44 = (-(ivec2(4, 9) / 7));
#else
        for (int i37 = 0; i37 < 3; i37++) {
          ++l20[0];
          fn6(0.125);
#ifndef MATERIAL_ENABLE_EMISSION
          {
            --l20[0];
          }
          l20[0] /= 2.0;
          for (int i38 = 0; i38 < 4; i38++) {
            g18 = bool(ivec2(i38));
            fn6((false ? l20[0] : renderer_U2).w);
            l20[0]++;
          }
#endif
          bool l39[3];
          l39[0] = (!renderer_U1);
        }
#ifdef MATERIAL_ENABLE_EMISSION
        g18 = g18;
        g18 = g18;
        if (greaterThanEqual(renderer_U2, renderer_U17).s) {
          l20[0] = (-renderer_U2);
          l20[0] = atan(exp(max(renderer_U17.ywzw.ywzx.raba, scene_U4)));
          l20[0] = tan(l20[0]);
          if (lessThanEqual(vec2(8.0), vec2(ivec2(4))).r) {
            l20[0] = vec4(0.0, bool(vec3(true, scene_U4, scene_U4)), float(bvec4(renderer_U1).tsp), dot(vec2(scene_U4), sqrt(vec2(scene_U4))));
          }
          g18 = equal(vec3(scene_U4), normalize(vec4(scene_U4).pqq))[1];
        }
        const vec3 l40 = mod(vec2(vec4(0.0)), vec3(7.0).y).yyy;
#else
        for (int i41 = 0; i41 < 3; i41++) {
discard;l42 = abs(vec2((vec4(3.5).wyz - scene_U4)));
        }
        l20[0]--;
        ivec3 l43 = ((ivec3(bvec3(true)) * (16 + ivec3(6))) + (ivec3(0xCB) - ivec3(10)).yyz);
#endif
        ivec2 l44 = ivec2(((1 + 16) / 7));
#endif
        return scene_U4;
      }
      int fn45() {
        if ((bool(ivec2(8).rrrg) != g18)) {
          g18 = renderer_U1;
          for (int i46 = 0; i46 < 2; i46++) {
            g18 = (renderer_U1 == false);
          }
        } else {
          fn6(scene_U4);
          {
            fn6((scene_U4 / 3.0));
          }
        }
        g18 = all((false ? bvec3(renderer_U1).tp : (renderer_U1 ? bvec2(false) : bvec2(true))));
        return int((-ivec2(0xF5).ttss));
      }
      struct Attributes47 {
        vec3 POSITION;
        vec3 NORMAL;
#ifndef SCENE_USE_FOG
        vec2 TEXCOORD_0;
#endif
      };
      struct Varyings52 {
        vec3 v48;
        vec2 v49;
        vec4 v50;
#ifndef MATERIAL_ENABLE_EMISSION
        float v51;
#endif
      };
      Varyings52 vert53(Attributes47 attr54) {
        Varyings52 o55;
#ifndef SCENE_USE_FOG
        fn6(scene_U4);
#else
        o55.v49 += (inversesqrt((o55.v49 / 3.0)) + (o55.v49 - o55.v49));
        if (bool(((renderer_U1 != true) ? ivec3(0xA9) : ivec3(attr54.NORMAL.zxzy)))) {
          o55.v50++;
        } else {
          o55.v49 /= 2.0;
#ifndef MATERIAL_ENABLE_EMISSION
          o55.v48 += min((scene_U4 - attr54.NORMAL), length(o55.v49)).ppt;
          fn6(atan(fn19()));
          g18 = (float(o55.v49) < float(ivec3(o55.v50)));
          if (greaterThanEqual((4.5 - vec2(o55.v51).gg), o55.v48.pt).s) {
            g18 = (renderer_U17.y < scene_U4);
            o55.v50 = renderer_U2;
          }
          g18 = lessThan(attr54.NORMAL, attr54.POSITION).ssst.s;
#endif
        }
#endif
        gl_Position = vec4(dot((o55.v49 * mat2(attr54.POSITION.z)), o55.v49));
        o55.v48 = (vec3(ivec4(6)) * (scene_U5 - (-scene_U5)));
        o55.v49 = (g18 ? fract(o55.v49) : tan(o55.v49)).tt;
        o55.v50 = (o55.v50 * renderer_U17);
#ifndef MATERIAL_ENABLE_EMISSION
        o55.v51 = ((o55.v48 - o55.v48.tss) / 4.0)[2];
#endif
        return o55;
      }
      void frag56(Varyings52 v57) {
        mat3 l58 = mat3(fn19());
        for (int i59 = 0; i59 < 3; i59++) {
          {
            l58 = mat3((sqrt(v57.v49.rrrr.qq.yyy) - (scene_U5 * v57.v48.sts)), (fn19() - v57.v48), v57.v48);
            l58 = ((-scene_U5) / 2.0);
            g18 = renderer_U1;
          }
          g18 = bool(vec2(bvec4(gl_FrontFacing)));
          for (int i60 = 0; i60 < 2; i60++) {
            g18 = ((gl_FrontFacing ? vec2(scene_U4) : v57.v49).r < length(v57.v48));
            g18 = renderer_U1;
            fn6((-v57.v48)[2]);
            vec4 l61 = (all(bvec4(false)) ? vec3(v57.v48) : vec3(v57.v48.zzz.p)).xyyx;
            l58 += matrixCompMult(mat3(v57.v48, v57.v48, inversesqrt(v57.v48)), l58);
          }
        }
        if (not(not(bvec2(true))).x) {
          l58 /= 2.0;
          vec3 l62 = v57.v48;
          float l63[3];
          l63[0] = fn19();
          float l64 = distance(vec3(float(l62)), v57.v48);
          l58 = matrixCompMult(mat3(l63[0]), scene_U5);
        } else {
          bool l65 = any(equal(v57.v49.xx, (v57.v49 / 0.5)));
        }
        gl_FragColor = v57.v48.bggb;
      }
      VertexShader = vert53;
      FragmentShader = frag56;
    }
  }
}
